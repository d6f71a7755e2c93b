import type { OperationName } from './operations.js';

/**
 * One line of `/vidops help`. `operation` is what the policy is asked about to decide whether
 * the caller may run it (null: every agent may); `leadsOnly` commands are listed to leads only.
 * @see docs/architecture.md, "Slash command grammar"
 */
export interface CommandHelp {
  usage: string;
  summary: string;
  operation: OperationName | null;
  leadsOnly: boolean;
  example: string;
}

/** The slash command the bot answers to. */
export const SLASH_COMMAND = '/vidops';

/** The whole grammar, in the design's order. */
export const COMMAND_HELP: readonly CommandHelp[] = [
  {
    usage: '/vidops help',
    summary: 'List the commands you may run.',
    operation: null,
    leadsOnly: false,
    example: '/vidops help',
  },
  {
    usage: '/vidops unblock <mobile>',
    summary: 'Unblock a viewer blocked for suspicious behaviour (player error 9910).',
    operation: 'viewer.unblock',
    leadsOnly: false,
    example: '/vidops unblock 0912 345 6789',
  },
  {
    usage: '/vidops retry <fileId>',
    summary: 'Queue a file whose conversion failed for conversion again.',
    operation: 'file.retry',
    leadsOnly: false,
    example: '/vidops retry 671018d0403eba579a6f90e2',
  },
  {
    usage: '/vidops whitelist',
    summary: 'Show the IP whitelist, with Add and Remove buttons.',
    operation: 'whitelist.get',
    leadsOnly: false,
    example: '/vidops whitelist',
  },
  {
    usage: '/vidops whitelist add <ip>…',
    summary: 'Add server IPs to the whitelist (needs a lead’s approval).',
    operation: 'whitelist.set',
    leadsOnly: false,
    example: '/vidops whitelist add 1.2.3.4 2a00:1::4',
  },
  {
    usage: '/vidops whitelist remove <ip>…',
    summary: 'Remove server IPs from the whitelist (needs a lead’s approval).',
    operation: 'whitelist.set',
    leadsOnly: false,
    example: '/vidops whitelist remove 1.2.3.4',
  },
  {
    usage: '/vidops protect',
    summary: 'Open the protection settings to change them (needs a lead’s approval).',
    operation: 'protect.set',
    leadsOnly: false,
    example: '/vidops protect',
  },
  {
    usage: '/vidops protect show',
    summary: 'Show the current protection settings.',
    operation: 'protect.get',
    leadsOnly: false,
    example: '/vidops protect show',
  },
  {
    usage: '/vidops protect set <field>=<value>…',
    summary: 'Change protection settings; nested ones by dotted name (needs a lead’s approval).',
    operation: 'protect.set',
    leadsOnly: false,
    example: '/vidops protect set player.offlineMode=true link.expireTime=2h opacity=0.5 fontColor=red',
  },
  {
    usage: '/vidops folder create',
    summary: 'Create a folder (needs a lead’s approval).',
    operation: 'folder.create',
    leadsOnly: false,
    example: '/vidops folder create',
  },
  {
    usage: '/vidops folder edit <bucketId>',
    summary: 'Rename a folder or change its description (needs a lead’s approval).',
    operation: 'folder.edit',
    leadsOnly: false,
    example: '/vidops folder edit 671018d0403eba579a6f90e2',
  },
  {
    usage: '/vidops folder delete <bucketId>',
    summary: 'Delete a folder and everything in it, for good (typed confirmation and a lead’s approval).',
    operation: 'folder.delete',
    leadsOnly: false,
    example: '/vidops folder delete 671018d0403eba579a6f90e2',
  },
  {
    usage: '/vidops file edit <fileId>',
    summary: 'Change a file’s title, description or cover image (needs a lead’s approval).',
    operation: 'file.edit',
    leadsOnly: false,
    example: '/vidops file edit 671018d0403eba579a6f90e2',
  },
  {
    usage: '/vidops file delete <fileId>',
    summary: 'Delete a file for good (typed confirmation and a lead’s approval).',
    operation: 'file.delete',
    leadsOnly: false,
    example: '/vidops file delete 671018d0403eba579a6f90e2',
  },
  {
    usage: '/vidops playlist edit <playlistId>',
    summary: 'Change a playlist’s title or files (needs a lead’s approval).',
    operation: 'playlist.edit',
    leadsOnly: false,
    example: '/vidops playlist edit 671018d0403eba579a6f90e2',
  },
  {
    usage: '/vidops playlist delete <playlistId>',
    summary: 'Delete a playlist and its contents, for good (typed confirmation and a lead’s approval).',
    operation: 'playlist.delete',
    leadsOnly: false,
    example: '/vidops playlist delete 671018d0403eba579a6f90e2',
  },
  {
    usage: '/vidops requests',
    summary: 'Your open requests; for leads, also the requests awaiting them.',
    operation: null,
    leadsOnly: false,
    example: '/vidops requests',
  },
  {
    usage: '/vidops audit [n]',
    summary: 'The last n audit events (default 10, at most 100).',
    operation: null,
    leadsOnly: true,
    example: '/vidops audit 20',
  },
  {
    usage: '/vidops explain <code>',
    summary: 'What a player error code means and how to fix it.',
    operation: null,
    leadsOnly: false,
    example: '/vidops explain 9910',
  },
];

/**
 * The usage line of a command given by its words (`retry`, `whitelist add`).
 * Throws for words that are not a command: that is a programming error, not user input.
 */
export function usageOf(command: string): string {
  const prefix = `${SLASH_COMMAND} ${command}`;
  const entry =
    COMMAND_HELP.find((h) => h.usage === prefix) ??
    COMMAND_HELP.find((h) => h.usage.startsWith(`${prefix} `));
  if (entry === undefined) throw new Error(`no help entry for "${command}"`);
  return entry.usage;
}
