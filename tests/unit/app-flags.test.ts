// --app: the command split into words as a shell would (no shell runs it), and each bad flag one line naming the fix.
import { describe, expect, test } from 'bun:test';
import { appFlags, splitCommand } from '../../packages/harness/src/cli/app-flags';
import { ownContender } from '../../packages/harness/src/run/own-app';
import { familyOf } from '../../packages/harness/src/model/questions';
import { OWN_APP } from '../../packages/harness/src/model/contenders';

describe('--app', () => {
  test('the command split into words, quotes and backslashes as a shell reads them; shell syntax refused', () => {
    expect(splitCommand('node server.js')).toEqual(['node', 'server.js']);
    expect(splitCommand(`node  "my app/server.js" --name 'a b' x\\ y`)).toEqual([
      'node',
      'my app/server.js',
      '--name',
      'a b',
      'x y',
    ]);
    expect(splitCommand('npm start')).toEqual(['npm', 'start']);
    expect(splitCommand('node a.js | tee log')).toMatch(/"\|" needs a shell; put the command in a script/);
    expect(splitCommand('node "a.js')).toMatch(/an unclosed "/);
    expect(splitCommand('  ')).toMatch(/give the command that starts the app/);
  });

  test('its flags: defaults, and each mistake one line naming the fix', () => {
    const ok = appFlags({ app: 'node server.mjs', path: '/colors' });
    expect(ok).toMatchObject({ ownApp: { name: 'your-app', argv: ['node', 'server.mjs'], path: '/colors' } });
    expect((ok as { ownApp: { body: unknown } }).ownApp.body).toEqual({ from: 'first' });
    expect(appFlags({ app: 'node s.js', body: 'any' })).toMatchObject({ ownApp: { body: { from: 'any' } } });
    expect(appFlags({})).toEqual({ ownApp: null });
    expect(appFlags({ path: '/x' })).toBe('--path goes with --app: add --app "the command that starts your app"');
    expect(appFlags({ app: 'node s.js', target: 'http://h:1/' })).toMatch(/^--app does not go with --target/);
    expect(appFlags({ app: 'node s.js', path: 'colors' })).toMatch(/must start with \//);
    expect(appFlags({ app: 'node s.js', cwd: '/no/such/dir' })).toMatch(/no such folder/);
    expect(appFlags({ app: 'node s.js', body: '/no/such/file' })).toMatch(/no such file/);
    expect(appFlags({ app: 'node s.js', 'app-name': 'a b' })).toMatch(/must be 1-60 letters/);
  });

  test('the app is a contender, asked against each other stack and never inside the stack questions', () => {
    const spec = {
      name: 'mine',
      command: 'node s.js',
      argv: ['node', 's.js'],
      cwd: '/',
      path: '/',
      body: { from: 'any' as const },
    };
    const own = ownContender(spec, ['node-raw-iovalkey']);
    expect(own).toMatchObject({ app: OWN_APP, runtime: 'node', start: ['node', 's.js'], path: '/' });
    expect(() => ownContender({ ...spec, name: 'node-raw-iovalkey' }, ['node-raw-iovalkey'])).toThrow(/another name/);
    const m = (name: string, runtime: string, client: string) => ({
      name,
      runtime,
      framework: 'raw',
      variant: null,
      client,
    });
    const f = familyOf([own, m('node-raw-iovalkey', 'node', 'iovalkey'), m('bun-raw-bun-redis', 'bun', 'bun-redis')]);
    const yours = f.questions.filter((q) => q.kind === 'yours');
    expect(yours.map((q) => q.members)).toEqual([
      ['mine', 'node-raw-iovalkey'],
      ['mine', 'bun-raw-bun-redis'],
    ]);
    expect(f.questions.filter((q) => q.kind !== 'yours').every((q) => !q.members.includes('mine'))).toBe(true);
  });
});
