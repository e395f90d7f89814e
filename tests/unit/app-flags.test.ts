// --app: the command split into words as a shell would (no shell runs it), and each bad flag one line naming the fix.
import { describe, expect, test } from 'bun:test';
import { type AppFlags, appFlags, splitCommand } from '../../packages/harness/src/cli/app-flags';
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
    // A shell would expand $ and ` inside double quotes too; a leading NAME=value is a shell's, set with env here.
    expect(splitCommand('node "$HOME/a.js"')).toMatch(/"\$" needs a shell/);
    expect(splitCommand('node "`pwd`/a.js"')).toMatch(/"`" needs a shell/);
    expect(splitCommand("node '$HOME'")).toEqual(['node', '$HOME']);
    expect(splitCommand('BURN_US=400 node a.js')).toBe(
      '--app "BURN_US=400 node a.js": a variable is set with env: --app "env BURN_US=400 node a.js"',
    );
    expect(splitCommand('env BURN_US=400 node a.js')).toEqual(['env', 'BURN_US=400', 'node', 'a.js']);
  });

  test('its flags: defaults, and each mistake one line naming the fix', () => {
    const ok = appFlags({ app: ['node server.mjs'], path: '/colors' });
    expect(ok).toMatchObject({ ownApps: [{ name: 'your-app', argv: ['node', 'server.mjs'], path: '/colors' }] });
    expect((ok as AppFlags).ownApps[0]!.body).toEqual({ from: 'first' });
    expect(appFlags({ app: 'node s.js', body: 'any' })).toMatchObject({ ownApps: [{ body: { from: 'any' } }] });
    expect(appFlags({})).toEqual({ ownApps: [] });
    // Twice: your two versions, named in order.
    const two = appFlags({ app: ['node v1.js', 'node v2.js'] }) as AppFlags;
    expect(two.ownApps.map((a) => [a.name, a.command])).toEqual([
      ['your-app', 'node v1.js'],
      ['your-app-2', 'node v2.js'],
    ]);
    expect((appFlags({ app: ['node v1.js', 'node v2.js'], 'app-name': 'old,new' }) as AppFlags).ownApps[1]!.name).toBe(
      'new',
    );
    expect(appFlags({ app: ['a', 'b'], 'app-name': 'old' })).toMatch(/give one name per --app \(2\)/);
    expect(appFlags({ app: ['a', 'b'], 'app-name': 'x,x' })).toMatch(/each app needs a name of its own/);
    expect(appFlags({ app: ['a', 'b', 'c'] })).toMatch(/^--app at most twice/);
    expect(appFlags({ app: 'node s.js', publish: true })).toBe(
      '--app measures your own app, which is never published: drop --publish',
    );
    expect(appFlags({ path: '/x' })).toBe('--path goes with --app: add --app "the command that starts your app"');
    expect(appFlags({ app: 'node s.js', target: 'http://h:1/' })).toMatch(/^--app does not go with --target/);
    // A cluster needs a cluster client; the app's own reads one node of REDIS_URL, so its twins would be misnamed.
    expect(appFlags({ app: 'node s.js', topology: 'cluster' })).toMatch(/^--app does not go with --topology cluster/);
    expect(appFlags({ app: 'node s.js', path: 'colors' })).toMatch(/must start with \//);
    expect(appFlags({ app: 'node s.js', cwd: '/no/such/dir' })).toMatch(/no such folder/);
    expect(appFlags({ app: 'node s.js', body: '/no/such/file' })).toMatch(/no such file/);
    expect(appFlags({ app: 'node s.js', 'app-name': 'a b' })).toMatch(/must be 1-60 letters/);
    // A program not found is said before anything starts (after env's variables), not as an exit at start.
    expect(appFlags({ app: 'nodee s.js' })).toBe(
      '--app "nodee s.js": nodee is not on PATH; install it or check the command',
    );
    expect(appFlags({ app: 'env X=1 nodee s.js' })).toMatch(/^--app "env X=1 nodee s.js": nodee is not on PATH/);
    // env's own options take arguments: the program is not told apart there, and the command is not refused.
    expect(appFlags({ app: 'env -u HOME node s.js' })).toMatchObject({ ownApps: [{ name: 'your-app' }] });
    expect(appFlags({ app: './start.sh', cwd: '/tmp' })).toMatch(/\.\/start\.sh is not a file in \/tmp;/);
    // A write workload POSTs, live changes the body: --app holds a GET route to one body.
    expect(appFlags({ app: 'node s.js', workload: 'upsert' })).toMatch(/^--workload upsert POSTs to the write route/);
    expect(appFlags({ app: 'node s.js', workload: 'live' })).toMatch(/^--workload live changes the stream/);
    expect(appFlags({ app: 'node s.js', workload: 'xrange-count' })).toMatchObject({ ownApps: [{ name: 'your-app' }] });
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
    const viaEnv = ownContender({ ...spec, argv: ['env', 'BURN_US=1', 'bun', 's.js'] }, []);
    expect(viaEnv.runtime).toBe('bun');
    expect(() => ownContender({ ...spec, name: 'node-raw-iovalkey' }, ['node-raw-iovalkey'])).toThrow(/another name/);
    const m = (name: string, runtime: string, client: string) => ({
      name,
      runtime,
      framework: 'raw',
      variant: null,
      client,
    });
    const other = ownContender({ ...spec, name: 'mine-2' }, []);
    const f = familyOf([
      own,
      other,
      m('node-raw-iovalkey', 'node', 'iovalkey'),
      m('bun-raw-bun-redis', 'bun', 'bun-redis'),
    ]);
    const yours = f.questions.filter((q) => q.kind === 'yours');
    // Each version against the other, then each against every stack.
    expect(yours.map((q) => q.members)).toEqual([
      ['mine', 'mine-2'],
      ['mine', 'node-raw-iovalkey'],
      ['mine', 'bun-raw-bun-redis'],
      ['mine-2', 'node-raw-iovalkey'],
      ['mine-2', 'bun-raw-bun-redis'],
    ]);
    expect(
      f.questions.filter((q) => q.kind !== 'yours').every((q) => !q.members.some((x) => x.startsWith('mine'))),
    ).toBe(true);
  });
});
