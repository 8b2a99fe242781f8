export { startFakeUpstream } from './server.js';
export { FakePromptCache } from './prompt-cache.js';
export type { CachedInputUsage, FakePromptCacheOptions } from './prompt-cache.js';
export type {
  BehaviourChooser,
  EmbeddingsScript,
  ErrorBehaviour,
  ErrorKind,
  FakeBehaviour,
  FakeScript,
  FakeUpstream,
  HangBehaviour,
  ReceivedRequest,
  RecordingBehaviour,
  ReplyShaping,
  ResetBehaviour,
  StartFakeUpstreamOptions,
  SyntheticBehaviour,
  SyntheticToolCall,
  SyntheticUsage,
} from './types.js';
export { recordingNames, recordings, type RecordingName } from '../recordings.js';
