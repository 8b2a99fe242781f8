// The IPC commands every bench server answers: its CPU time so far, a clean exit, and a CPU profile or a
// sampling allocation profile of a window the driver chooses (after warm-up), so a profile shows the steady state
// rather than start-up.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { getHeapSpaceStatistics } from 'node:v8';

let session: Session | undefined;

export function answerBenchControl(): void {
  process.on('message', (message: unknown) => {
    void handle(message);
  });
}

async function handle(message: unknown): Promise<void> {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') process.exit(0);
  if (message === 'spaces') process.send?.({ spaces: getHeapSpaceStatistics() });
  if (message === 'profile-start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    process.send?.({ profiling: true });
  }
  if (message === 'heap-start') {
    session = new Session();
    session.connect();
    await session.post('HeapProfiler.enable');
    // Every allocation, also what the next scavenge collects: what a request allocates is what the collector pays for.
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    process.send?.({ sampling: true });
  }
  if (typeof message === 'object' && message !== null && 'heapStop' in message && session) {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(String((message as { heapStop: string }).heapStop), JSON.stringify(profile));
    session.disconnect();
    session = undefined;
    process.send?.({ sampled: true });
  }
  if (typeof message === 'object' && message !== null && 'profileStop' in message && session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(String((message as { profileStop: string }).profileStop), JSON.stringify(profile));
    session.disconnect();
    session = undefined;
    process.send?.({ profiled: true });
  }
}
