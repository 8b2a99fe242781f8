import { describe, expect, it } from 'vitest';
import { frameTokens } from '../features/scopes.js';
import { applyRules } from './rules.js';

function toolsetsOf(text: string, clientToolsets?: string[]): string[] {
  return [...applyRules(frameTokens(text), text, false, undefined, 'english', clientToolsets ? new Set(clientToolsets) : undefined).toolsets].sort();
}

describe('rules for files read_file cannot open', () => {
  it('a local PDF, archive or slide deck brings the shell', () => {
    expect(toolsetsOf('summarise ~/Downloads/budget_2025.pdf for me')).toEqual(['file', 'terminal']);
    expect(toolsetsOf('what is inside backup.tar.gz')).toContain('terminal');
    expect(toolsetsOf('turn deck.pptx into speaker notes')).toContain('terminal');
    expect(toolsetsOf('κάνε περίληψη του ~/Λήψεις/πρακτικά_συνέλευσης.pdf')).toContain('terminal');
  });

  it('a video brings the shell unless the client has a video toolset', () => {
    expect(toolsetsOf('cut ~/clips/wedding.mp4 down to one minute')).toContain('terminal');
    expect(toolsetsOf('cut ~/clips/wedding.mp4 down to one minute', ['file', 'terminal', 'video'])).not.toContain('terminal');
    expect(toolsetsOf('cut ~/clips/wedding.mp4 down to one minute', ['file', 'terminal'])).toContain('terminal');
  });

  it('an audio file brings the shell even with a video toolset, which analyses video formats only', () => {
    expect(toolsetsOf('transcribe ~/Downloads/voicemail_0423.m4a', ['file', 'terminal', 'video'])).toContain('terminal');
    expect(toolsetsOf('trim the silence off interview.wav', ['file', 'terminal', 'video'])).toContain('terminal');
    expect(toolsetsOf('what is a good bitrate for an mp3 podcast', ['file', 'terminal', 'video'])).not.toContain('terminal');
  });

  it('a file on the web, a text file and a negated file do not', () => {
    expect(toolsetsOf('summarise https://example.org/report.pdf')).not.toContain('terminal');
    expect(toolsetsOf('add a line to notes.txt')).not.toContain('terminal');
    expect(toolsetsOf("don't open ~/a.pdf, just tell me what a PDF is")).not.toContain('terminal');
  });
});

describe('work the file toolset cannot do', () => {
  it('numbers computed over a data file bring code execution', () => {
    expect(toolsetsOf('what is the average order value per region in ~/shop/orders_2026.csv')).toContain('code_execution');
    expect(toolsetsOf('plot weekly signups from the exported spreadsheet')).toContain('code_execution');
    expect(toolsetsOf('how many rows of visits.tsv have an empty email column?')).toContain('code_execution');
  });

  it('writing or changing an office document brings code execution', () => {
    expect(toolsetsOf('put these minutes into ~/club/agm_minutes.docx')).toContain('code_execution');
    expect(toolsetsOf('update the prices in stock.xlsx to the new list')).toContain('code_execution');
    expect(toolsetsOf('make me a Word document with the packing list')).toContain('code_execution');
  });

  it('reading a document, a data file without arithmetic, or a negated ask does not', () => {
    expect(toolsetsOf('summarise ~/uni/reading_week.docx for me')).not.toContain('code_execution');
    expect(toolsetsOf('add a line to contacts.csv for Priya')).not.toContain('code_execution');
    expect(toolsetsOf('update stock.xlsx to the new list')).toContain('code_execution');
    expect(toolsetsOf("don't update stock.xlsx, just tell me what is in it")).not.toContain('code_execution');
  });
});

describe('a cloned repository', () => {
  it('read to explain or find something brings the file toolset', () => {
    expect(toolsetsOf('clone ripgrep from github and explain how it skips hidden entries')).toContain('file');
    expect(toolsetsOf('clone the neovim sources and walk me through how plugins get loaded')).toContain('file');
  });

  it('cloned only to run or build it does not', () => {
    expect(toolsetsOf('clone zstd from github and run its benchmarks')).not.toContain('file');
  });
});

describe('image files', () => {
  it('changing a local image takes the shell; looking at one does not', () => {
    expect(toolsetsOf('resize everything in ~/shop/product_photos to 1080x1080 squares')).toContain('terminal');
    expect(toolsetsOf('convert logo.png to a 64px icon')).toContain('terminal');
    expect(toolsetsOf('look at ~/garden/leaf.jpg and tell me what is wrong with it')).not.toContain('terminal');
  });
});

describe('booking', () => {
  it('booking or buying a ticket, a table or a slot brings the browser', () => {
    expect(toolsetsOf('book me a table for two at Da Enzo tonight')).toContain('browser');
    expect(toolsetsOf('buy 2 tickets for the Saturday show')).toContain('browser');
    expect(toolsetsOf('reserve the earliest appointment at the barber')).toContain('browser');
  });

  it('the noun alone does not', () => {
    expect(toolsetsOf('recommend a book about table manners')).not.toContain('browser');
    expect(toolsetsOf('what should I buy my dad for his birthday')).not.toContain('browser');
  });
});

describe('time words', () => {
  it('ask for something current, except in a reminder, where they are its time', () => {
    expect(toolsetsOf("what's on at the cinema tonight")).toContain('web');
    expect(toolsetsOf('dentist tomorrow at 3pm, remind me an hour before')).toEqual(['cronjob']);
    expect(toolsetsOf('remind me tomorrow to check the weather forecast')).toEqual(['cronjob', 'web']);
  });
});

describe('the shell words', () => {
  it('read make and launch as commands only where they are commands', () => {
    expect(toolsetsOf('make me a cartoon of my cat as a pirate')).not.toContain('terminal');
    expect(toolsetsOf('help me plan the product launch party')).not.toContain('terminal');
    expect(toolsetsOf('run make test and fix what breaks')).toContain('terminal');
    expect(toolsetsOf('why does `make` say "missing separator"')).toContain('terminal');
    expect(toolsetsOf('launch the dev server and open it')).toContain('terminal');
    expect(toolsetsOf('compare the two branches feature/auth and main')).toContain('terminal');
  });
});

describe('words with a second sense', () => {
  it('"ping me" asks to be told, not for the ping command; pinging a host or a device is the shell', () => {
    expect(toolsetsOf('ping me when the parcel arrives')).not.toContain('terminal');
    expect(toolsetsOf('ping me when the parcel arrives')).toContain('cronjob');
    expect(toolsetsOf('ping us on friday with the numbers')).not.toContain('terminal');
    expect(toolsetsOf('ping 8.8.8.8 and tell me the latency')).toContain('terminal');
    expect(toolsetsOf('ping my router at 192.168.1.1')).toContain('terminal');
  });

  it('a container, disk or OS image is not a picture to look at', () => {
    expect(toolsetsOf('how big is the docker image for this project?')).not.toContain('vision');
    expect(toolsetsOf('flash the ubuntu image to the sd card')).not.toContain('vision');
    expect(toolsetsOf('switch the base images to distroless')).not.toContain('vision');
    expect(toolsetsOf('what is in this image?')).toContain('vision');
    expect(toolsetsOf('the docker logo image looks blurry, what is wrong with it')).toContain('vision');
  });
});

describe('a request not to be let miss something', () => {
  it('is a reminder, in English and Chinese; a forgotten fact without a date is not', () => {
    expect(toolsetsOf("don't let me miss the 3pm standup tomorrow")).toEqual(['cronjob']);
    expect(toolsetsOf('make sure we never oversleep for the 6:40 ferry')).toContain('cronjob');
    expect(toolsetsOf('不要让我错过明天早上的航班')).toContain('cronjob');
    expect(toolsetsOf('别让我忘了下周一交报告')).toContain('cronjob');
    expect(toolsetsOf('别让我忘了我的wifi密码')).not.toContain('cronjob');
    expect(toolsetsOf('别让我忘了我的账号密码')).not.toContain('cronjob');
    expect(toolsetsOf('别让我忘了15号交房租')).toContain('cronjob');
    expect(toolsetsOf("don't let the kids miss the school bus")).not.toContain('cronjob');
  });

  it('reads a bare "cron" as the scheduler', () => {
    expect(toolsetsOf("the cron that backs up my notes didn't fire last night, check it")).toContain('cronjob');
  });
});

describe('a look-up', () => {
  it('asks for the web whether or not a pronoun splits the phrasal verb', () => {
    expect(toolsetsOf('tell me about the band (look them up)')).toContain('web');
    expect(toolsetsOf('no idea who wrote it, look it up')).toContain('web');
    expect(toolsetsOf('tell me about the band, from what you know')).not.toContain('web');
  });
});

describe('running a named script', () => {
  it('needs no backing from the model, in English and Chinese, and never when negated', () => {
    const ruled = (text: string) => applyRules(frameTokens(text), text, false, undefined, /[\u4e00-\u9fff]/.test(text) ? 'other' : 'english');
    expect([...ruled("don't touch the other specs, just run spec_checkout.rb").unambiguous]).toEqual(['terminal']);
    expect([...ruled('别动别的脚本，只执行 cleanup.sh').unambiguous]).toEqual(['terminal']);
    expect([...ruled('run ./scripts/backup.sh tonight').unambiguous]).toEqual(['terminal']);
    expect(ruled("don't run deploy.sh").fired).not.toContain('run-named-script');
    expect(ruled('explain what setup.py does').fired).not.toContain('run-named-script');
    expect([...ruled('check the branch list').unambiguous]).toEqual([]);
  });
});

describe("Home Assistant's short name", () => {
  it('reads HA and HACS in capitals as Home Assistant, never a laugh or a negated one', () => {
    expect(toolsetsOf('check the HA logs for errors, then restart HA')).toContain('homeassistant');
    expect(toolsetsOf('update the HACS integrations on the pi')).toContain('homeassistant');
    expect(toolsetsOf('ha ha, very funny. now summarise the meeting notes')).not.toContain('homeassistant');
    expect(toolsetsOf("don't touch HA, just summarise the meeting notes")).not.toContain('homeassistant');
    expect(toolsetsOf('the HAL 9000 quote, please')).not.toContain('homeassistant');
    expect(toolsetsOf("ha, thanks. and don't touch HA, just summarise the meeting notes")).not.toContain('homeassistant');
    expect(toolsetsOf('"HA" is short for what? ha, tell me')).not.toContain('homeassistant');
    expect(toolsetsOf('ha, ok: restart HA')).toContain('homeassistant');
  });
});

describe('the agent\'s memory named as a place', () => {
  it('saving something to memory brings the memory toolset', () => {
    expect(toolsetsOf('log the new rota and add a note to memory that Sam swaps Fridays')).toContain('memory');
    expect(toolsetsOf('store my shoe size to your memory: EU 44')).toContain('memory');
  });

  it('a memory stick, a leak or a negated save does not', () => {
    expect(toolsetsOf('copy the holiday photos to the memory stick')).not.toContain('memory');
    expect(toolsetsOf('why does this loop add to memory usage every request')).not.toContain('memory');
    expect(toolsetsOf("don't save any of this to memory, I just need to vent")).not.toContain('memory');
  });
});
