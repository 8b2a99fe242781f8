import { randomBytes } from 'node:crypto';

/** Ids in the Responses API's style: a type prefix and random hex (`resp_…`, `msg_…`, `fc_…`, `rs_…`). */
export function responsesId(prefix: 'resp' | 'msg' | 'fc' | 'rs' | 'ctc'): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
