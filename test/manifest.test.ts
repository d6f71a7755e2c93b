import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { z } from 'zod';
import { BOT_SCOPES } from '../src/slack/scopes.js';
import { SHORTCUT_LIST } from '../src/views/modals/shortcuts.js';

// Slack's public manifest schema (draft-07), kept in the repository (test/fixtures/slack/README.md).
const schemaDir = new URL('./fixtures/slack/manifest-schema/', import.meta.url);
const manifestUrl = new URL('../manifest.yml', import.meta.url);

function readJson(name: string): Record<string, unknown> {
  const parsed: Record<string, unknown> = JSON.parse(readFileSync(new URL(name, schemaDir), 'utf8'));
  return parsed;
}

function manifestValidator(): ValidateFunction {
  // strictTypes off: Slack's schema leaves `type` implicit beside `required`/`minItems` in places.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  // Non-standard keywords of Slack's schema: `_note` is a comment, `regex` (on background_color)
  // is meant as a pattern and is checked as one.
  ajv.addKeyword('_note');
  ajv.addKeyword({
    keyword: 'regex',
    type: 'string',
    schemaType: 'string',
    validate: (pattern: string, data: string) => new RegExp(pattern).test(data),
  });
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  // The root schema $refs the versioned files by their published URLs.
  for (const version of ['1.0.0', '2.0.0']) {
    ajv.addSchema(
      readJson(`manifest.schema.${version}.json`),
      `https://raw.githubusercontent.com/slackapi/manifest-schema/v0.5.0/schemas/manifest.schema.${version}.json`,
    );
  }
  return ajv.compile(readJson('manifest.schema.json'));
}

function loadManifest(): Record<string, unknown> {
  const parsed: Record<string, unknown> = parse(readFileSync(manifestUrl, 'utf8'));
  return parsed;
}

describe('an admin creates the Slack app from manifest.yml', () => {
  const validate = manifestValidator();
  const manifest = loadManifest();

  it("is accepted by Slack's manifest schema", () => {
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would be refused by the schema if it were broken', () => {
    const broken = {
      ...manifest,
      display_information: { name: 'vidops', background_color: 'bluish' },
      features: { slash_commands: [{ command: 'vidops', description: '' }] },
    };
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining([
        '/display_information/background_color',
        '/features/slash_commands/0/command',
        '/features/slash_commands/0/description',
      ]),
    );
  });

  it('asks for exactly the bot scopes the bot uses', () => {
    const { oauth_config } = z
      .looseObject({ oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }) })
      .parse(manifest);
    expect([...oauth_config.scopes.bot].sort()).toEqual(
      [
        'channels:history',
        'groups:history',
        'chat:write',
        'chat:write.public',
        'commands',
        'files:read',
        'im:write',
        'usergroups:read',
        'users:read',
        'channels:read',
        'groups:read',
      ].sort(),
    );
    // The list vidops doctor checks a token against, and the emulator grants.
    expect([...oauth_config.scopes.bot].sort()).toEqual([...BOT_SCOPES].sort());
  });

  it('has /vidops, interactivity, App Home, the bot user, app_home_opened and Socket Mode', () => {
    expect(manifest).toMatchObject({
      display_information: { name: 'vidops' },
      features: {
        app_home: { home_tab_enabled: true, messages_tab_enabled: true },
        bot_user: { display_name: 'vidops' },
        slash_commands: [
          {
            command: '/vidops',
            url: 'https://vidops.example.com/slack/events',
            description: expect.any(String),
            usage_hint: expect.stringContaining('unblock <mobile>'),
            // Mentions arrive as <@U…|name> (`/vidops delegate`); the grammar reads escaped text.
            should_escape: true,
          },
        ],
      },
      settings: {
        event_subscriptions: { bot_events: ['app_home_opened'] },
        interactivity: { is_enabled: true, request_url: 'https://vidops.example.com/slack/events' },
        socket_mode_enabled: true,
      },
    });
  });

  it('declares the two message shortcuts and the global one that vidops handles, as the code names them', () => {
    const { features } = z
      .looseObject({ features: z.looseObject({ shortcuts: z.array(z.looseObject({})) }) })
      .parse(manifest);
    expect(features.shortcuts).toEqual(SHORTCUT_LIST);
    expect(SHORTCUT_LIST.map((s) => s.callback_id)).toEqual([
      'unblock_from_message',
      'retry_from_message',
      'vidops_menu',
    ]);
  });

  it('would be refused by the schema with a shortcut name over 24 characters or of an unknown type', () => {
    const features = { ...(manifest.features as Record<string, unknown>) };
    const broken = {
      ...manifest,
      features: {
        ...features,
        shortcuts: [
          { name: 'Unblock the viewer of this message', type: 'message', callback_id: 'a', description: 'x' },
          { name: 'vidops', type: 'channel', callback_id: 'b', description: 'y' },
        ],
      },
    };
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/features/shortcuts/0/name', '/features/shortcuts/1/type']),
    );
  });
});
