import { loadContenders } from './packages/harness/src/model/manifests';
import { startPrivateRedis } from './packages/harness/src/topology/redis';
import { appStarter } from './tests/helpers/apps';
const cs = loadContenders();
const redis = await startPrivateRedis('/work/main/dump.rdb');
const pids:number[]=[];
const { withApp, stopped } = appStarter(() => ({ redisUrl: redis.url, golden: '' }), pids);
for (const n of process.argv.slice(2)) {
  const c = cs.find(x=>x.name===n)!;
  await withApp(c, async()=>{}); await stopped();
  const self0 = process.cpuUsage(); const ch0 = (await Bun.file('/proc/self/stat').text()).split(' ');
  const t0=performance.now(); const N=5;
  for (let i=0;i<N;i++){ await withApp(c, async (app)=>{ await fetch(app.url).then(r=>r.text()); }); }
  await stopped();
  const t1=performance.now(); const self = process.cpuUsage(self0);
  const ch1 = (await Bun.file('/proc/self/stat').text()).split(' ');
  const child = ((+ch1[15]+ +ch1[16]) - (+ch0[15]+ +ch0[16]))*10;
  console.log(n, ((t1-t0)/N).toFixed(0)+'ms/launch', 'harness cpu/launch', ((self.user+self.system)/1000/N).toFixed(0), 'children cpu/launch', (child/N).toFixed(0));
}
await redis.stop();
