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
    await stopAndWrite(session, 'HeapProfiler.stopSampling', String((message as { heapStop: string }).heapStop));
    process.send?.({ sampled: true });
  }
  if (typeof message === 'object' && message !== null && 'profileStop' in message && session) {
    await stopAndWrite(session, 'Profiler.stop', String((message as { profileStop: string }).profileStop));
    process.send?.({ profiled: true });
  }
}

/** Ends the profile the session is taking, writes it to `path` and closes the session. */
async function stopAndWrite(open: Session, method: 'Profiler.stop' | 'HeapProfiler.stopSampling', path: string): Promise<void> {
  // Both answer { profile }; the inspector's typings overload post per method, not per union of methods.
  const { profile } = (await open.post(method as 'Profiler.stop')) as { profile: unknown };
  writeFileSync(path, JSON.stringify(profile));
  open.disconnect();
  session = undefined;
}
