import {
  formatNote,
  formatSignerKey,
  formatVerifierKey,
  generateSignerKey,
  keyIdOf,
  MAX_SIGNATURES,
  NoteFormatError,
  parseNote,
  parseSignerKey,
  parseVerifierKey,
  signNote,
  verifierKeyOf,
  verifyNote,
} from './signed-note.js';

/**
 * The example of the reference implementation of signed notes (Go's golang.org/x/mod/sumdb/note
 * documentation): its private and public key texts, a text, and the exact signature line.
 * Ed25519 signatures are deterministic, so signing the text must give this line byte for byte.
 */
const REFERENCE = {
  signer: 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz',
  verifier: 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
  text: "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n",
  signature:
    '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n',
};

/** The example of an earlier version of the C2SP signed-note spec (a key and a note signed by it). */
const SPEC_EXAMPLE = {
  verifier: 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k',
  note: 'This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n',
};

describe('signed notes match the published examples byte for byte', () => {
  it('reads the reference key texts and computes their key ID', () => {
    const signer = parseSignerKey(REFERENCE.signer);
    const verifier = parseVerifierKey(REFERENCE.verifier);
    expect(signer).toMatchObject({ name: 'PeterNeumann', keyId: 'c74f20a3' });
    expect(verifier.keyId).toBe('c74f20a3');
    expect(keyIdOf('PeterNeumann', verifier.publicKey)).toBe('c74f20a3');
    expect(signer.publicKey.equals(verifier.publicKey)).toBe(true);
    expect(formatSignerKey(signer)).toBe(REFERENCE.signer);
    expect(formatVerifierKey(verifier)).toBe(REFERENCE.verifier);
    expect(formatVerifierKey(verifierKeyOf(signer))).toBe(REFERENCE.verifier);
  });

  it('signs the reference text into exactly the reference note, which verifies', () => {
    const note = signNote(REFERENCE.text, [parseSignerKey(REFERENCE.signer)]);
    expect(note).toBe(`${REFERENCE.text}\n${REFERENCE.signature}`);
    const verdict = verifyNote(parseNote(note), [parseVerifierKey(REFERENCE.verifier)]);
    expect(verdict).toMatchObject({ ok: true, text: REFERENCE.text });
    expect(formatNote(parseNote(note))).toBe(note);
  });

  it('verifies the spec example note and refuses it once one letter of its text changes', () => {
    const key = parseVerifierKey(SPEC_EXAMPLE.verifier);
    expect(verifyNote(parseNote(SPEC_EXAMPLE.note), [key]).ok).toBe(true);
    const edited = SPEC_EXAMPLE.note.replace('example message', 'example massage');
    expect(verifyNote(parseNote(edited), [key])).toMatchObject({ ok: false, problem: 'bad-signature' });
  });

  it('reads a note whose text holds an empty line, splitting at the last blank line', () => {
    const signer = generateSignerKey('example.org/poem');
    const text = 'first stanza\n\nsecond stanza\n';
    const note = parseNote(signNote(text, [signer]));
    expect(note.text).toBe(text);
    expect(verifyNote(note, [verifierKeyOf(signer)]).ok).toBe(true);
  });
});

describe('a note that is not exactly of the format is refused', () => {
  const signer = generateSignerKey('vidops/test');
  const good = signNote('vidops/test\n1\nAAAA\n', [signer]);
  const sigLine = good.slice(good.lastIndexOf('\n\n') + 2);

  it.each([
    ['no final newline', good.slice(0, -1), /does not end with a newline/],
    ['no blank line before the signatures', good.replace('\n\n', '\n'), /no blank line/],
    ['nothing after the blank line', 'text\n\n', /no signature line/],
    ['a hyphen instead of the em dash', good.replace('\u2014 ', '- '), /does not start with "— "/],
    ['no space after the em dash', good.replace('\u2014 ', '\u2014'), /does not start with "— "/],
    ['a key name and no signature', 'text\n\n\u2014 vidops/test\n', /no space between/],
    ['a key name with a plus', good.replace('\u2014 vidops/test ', '\u2014 vidops+test '), /key name/],
    ['a signature that is not base64', good.replace(/ \S+\n$/, ' not*base64==\n'), /not standard base64/],
    ['base64 without padding', good.replace(/=\n$/, '\n'), /not standard base64/],
    ['a signature of 4 bytes', 'text\n\n\u2014 k AAAAAA==\n', /too short/],
    ['a carriage return', good.replace('\n1\n', '\r\n1\n'), /control character \(U\+000D\) on line 1/],
    ['a tab', good.replace('1\n', '1\t\n'), /U\+0009/],
    ['an escape sequence', `\u001b[31mred\n\n${sigLine}`, /U\+001B/],
    ['DEL', `a\u007f\n\n${sigLine}`, /U\+007F/],
    ['a C1 control', `a\u009b\n\n${sigLine}`, /U\+009B/],
    ['a lone surrogate', `a\ud800\n\n${sigLine}`, /not valid UTF-8/],
  ])('%s', (_what, text, message) => {
    expect(() => parseNote(text)).toThrow(NoteFormatError);
    expect(() => parseNote(text)).toThrow(message);
  });

  it('refuses bytes that are not UTF-8 and reads the same note given as bytes', () => {
    const bytes = Buffer.from(good, 'utf8');
    expect(parseNote(bytes)).toEqual(parseNote(good));
    const broken = Buffer.concat([Buffer.from([0xff, 0xfe]), bytes]);
    expect(() => parseNote(broken)).toThrow('The note is not valid UTF-8 text.');
  });

  it(`reads ${MAX_SIGNATURES} signature lines and refuses one more`, () => {
    const many = (n: number) => `text\n\n${sigLine.repeat(n)}`;
    expect(parseNote(many(MAX_SIGNATURES)).signatures).toHaveLength(MAX_SIGNATURES);
    expect(() => parseNote(many(MAX_SIGNATURES + 1))).toThrow(
      `The note has ${MAX_SIGNATURES + 1} signature lines; at most ${MAX_SIGNATURES} are read.`,
    );
  });

  it('refuses to sign a text without a final newline, with a control character, or empty', () => {
    expect(() => signNote('no newline', [signer])).toThrow(NoteFormatError);
    expect(() => signNote('bell\u0007\n', [signer])).toThrow(/control character/);
    expect(() => signNote('', [signer])).toThrow(NoteFormatError);
  });
});

describe('verifying a note against the known keys', () => {
  const current = generateSignerKey('vidops/prod');
  const previous = generateSignerKey('vidops/prod');
  const witness = generateSignerKey('witness.example/w1');
  const text = 'vidops/prod\n3\nAAAA\n';

  it('holds when a known key signed it, ignoring signatures by unknown keys', () => {
    const note = parseNote(signNote(text, [witness, current]));
    const verdict = verifyNote(note, [verifierKeyOf(current)]);
    expect(verdict.ok && verdict.verifiedBy.map((k) => k.keyId)).toEqual([current.keyId]);
  });

  it('fails when no known key signed it, naming who claims to have signed', () => {
    const note = parseNote(signNote(text, [witness]));
    expect(verifyNote(note, [verifierKeyOf(current), verifierKeyOf(previous)])).toEqual({
      ok: false,
      problem: 'unknown-keys',
      signedBy: [`witness.example/w1+${witness.keyId}`],
    });
  });

  it('ignores a key with the same name but another ID, and one with the same ID but another name', () => {
    const note = parseNote(signNote(text, [previous]));
    expect(verifyNote(note, [verifierKeyOf(current)])).toMatchObject({ ok: false, problem: 'unknown-keys' });
    const renamed = { ...verifierKeyOf(previous), name: 'vidops/other' };
    expect(verifyNote(note, [renamed])).toMatchObject({ ok: false, problem: 'unknown-keys' });
  });

  it('fails when a known key signature does not hold, even if another known key holds', () => {
    const note = parseNote(signNote(text, [current, previous]));
    const forged = {
      ...note,
      signatures: note.signatures.map((s, i) => (i === 1 ? { ...s, signature: Buffer.alloc(64, 7) } : s)),
    };
    const verdict = verifyNote(forged, [verifierKeyOf(current), verifierKeyOf(previous)]);
    expect(verdict).toMatchObject({ ok: false, problem: 'bad-signature', key: { keyId: previous.keyId } });
    // Without that key listed, the forged line is an unknown key's and is ignored.
    expect(verifyNote(forged, [verifierKeyOf(current)]).ok).toBe(true);
  });

  it('fails when the text was edited after signing', () => {
    const note = parseNote(signNote(text, [current]));
    const edited = { ...note, text: text.replace('\n3\n', '\n4\n') };
    expect(verifyNote(edited, [verifierKeyOf(current)])).toMatchObject({
      ok: false,
      problem: 'bad-signature',
    });
  });
});

describe('key texts', () => {
  it('an operator generates a key, writes both texts, and reads them back', () => {
    const signer = generateSignerKey('vidops/prod');
    const privateText = formatSignerKey(signer);
    const publicText = formatVerifierKey(verifierKeyOf(signer));
    expect(privateText).toMatch(/^PRIVATE\+KEY\+vidops\/prod\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    expect(publicText).toMatch(/^vidops\/prod\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    const reread = parseSignerKey(`${privateText}\n`);
    const note = signNote('hello\n', [reread]);
    expect(verifyNote(parseNote(note), [parseVerifierKey(`${publicText}\n`)]).ok).toBe(true);
  });

  it('refuses key names with a space or a plus, and empty ones', () => {
    expect(() => generateSignerKey('vidops prod')).toThrow(NoteFormatError);
    expect(() => generateSignerKey('vidops+prod')).toThrow(NoteFormatError);
    expect(() => generateSignerKey('')).toThrow(NoteFormatError);
    expect(() => generateSignerKey('vidops\u00a0prod')).toThrow(NoteFormatError);
  });

  it('refuses mangled public keys: another ID, a cut key, another type byte, a missing part', () => {
    const good = REFERENCE.verifier;
    expect(() => parseVerifierKey(good.replace('c74f20a3', 'c74f20a4'))).toThrow(/not that of its name/);
    expect(() => parseVerifierKey(good.replace('PeterNeumann', 'PeterNeuman'))).toThrow(
      /not that of its name/,
    );
    expect(() => parseVerifierKey(good.slice(0, -4))).toThrow(NoteFormatError);
    expect(() =>
      parseVerifierKey('PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
    ).toThrow(/not an Ed25519 key/);
    expect(() => parseVerifierKey('PeterNeumann+c74f20a3')).toThrow(/not of the form/);
    for (let cut = 1; cut < good.length; cut += 7) {
      expect(() => parseVerifierKey(good.slice(0, cut))).toThrow(NoteFormatError);
    }
  });

  it('refuses a mangled private key without ever repeating it', () => {
    const mangled = [
      REFERENCE.signer.replace('c74f20a3', 'c74f20a4'),
      REFERENCE.signer.replace('PRIVATE+KEY+', 'PRIVATE+'),
      REFERENCE.signer.slice(0, -2),
      REFERENCE.verifier,
    ];
    for (const text of mangled) {
      let message = '';
      try {
        parseSignerKey(text);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('AYEKFALVFGyN');
      expect(message).not.toContain('ARpc2QcU');
    }
  });
});
