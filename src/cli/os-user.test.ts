import { osUser } from './run.js';

/**
 * Who the CLI says is at the keyboard: the OS user the machine vouches for. The identity rule of
 * every CLI approval rests on it (docs/security.md, "Identity on the command line").
 */
describe('the OS user the CLI acts as', () => {
  const noPasswdEntry = () => {
    throw new Error('ENOENT: no such file or directory, uv_os_get_passwd');
  };

  it('is the passwd name when the machine has one', () => {
    expect(osUser(() => ({ username: 'sara' }), 1000)).toBe('sara');
  });

  it('is the uid when the machine has no name for it, whatever USER says', () => {
    // Was a defect: USER was read instead, so the requester set USER=lena and approved their own request.
    const saved = process.env.USER;
    process.env.USER = 'lena';
    try {
      expect(osUser(noPasswdEntry, 4545)).toBe('uid:4545');
    } finally {
      if (saved === undefined) delete process.env.USER;
      else process.env.USER = saved;
    }
  });

  it('is "unknown" where there is neither a name nor a uid', () => {
    expect(osUser(noPasswdEntry, null)).toBe('unknown');
  });
});
