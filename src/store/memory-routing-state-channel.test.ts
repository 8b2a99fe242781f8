import { MemoryRoutingStateHub } from './memory-routing-state-channel.js';
import { describeRoutingStateChannelContract } from './routing-state-channel.contract.js';

describeRoutingStateChannelContract('memory', async () => {
  const hub = new MemoryRoutingStateHub();
  return { first: hub.channel(), second: hub.channel() };
});
