// The IPC commands every bench server answers: its CPU time so far, a clean exit, and a CPU profile of a
// window the driver chooses (after warm-up), so a profile shows the steady state rather than start-up.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

let session: Session | undefined;

export function answerBenchControl(): void {
  process.on('message', (message: unknown) => {
    void handle(message);
  });
}

async function handle(message: unknown): Promise<void> {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') process.exit(0);
  if (message === 'profile-start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    process.send?.({ profiling: true });
  }
  if (typeof message === 'object' && message !== null && 'profileStop' in message && session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(String((message as { profileStop: string }).profileStop), JSON.stringify(profile));
    session.disconnect();
    session = undefined;
    process.send?.({ profiled: true });
  }
}
