// Every reader, audited by tools nobody here wrote: axe-core (no violation of
// impact serious or critical) and contrast ratios from computed styles, over
// the full page, embed.html and a host with two elements, in three states
// (initial, after a run, mid-way through the stepper), in both themes and in
// Spanish.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { READY_MS, TEST_TIMEOUT, ready } from './helpers.mjs';
import { seriousViolations, contrastFailures, auditStates, twoElementHost } from './a11y.mjs';
import { useBrowser } from './fixture.mjs';

let twoUrl;
const ctx = useBrowser({
  site: true,
  setUp: async (f) => {
    twoUrl = await twoElementHost(f.site);
  },
});

const PAGES = {
  'the full page': () => `${ctx.site.assetsUrl}index.html`,
  'embed.html': () => `${ctx.site.assetsUrl}embed.html#flags=1001101001&method=scan&panels=editor,result,scan,code`,
  'a host with two elements': () => twoUrl,
};
const VARIANTS = [
  { name: 'light, English', colorScheme: 'light', locale: 'en-GB' },
  { name: 'dark, English', colorScheme: 'dark', locale: 'en-GB' },
  { name: 'light, Spanish', colorScheme: 'light', locale: 'es-ES' },
];

for (const [pageName, url] of Object.entries(PAGES)) {
  test(`axe and contrast: ${pageName}`, { timeout: TEST_TIMEOUT * 2 }, async () => {
    const problems = [];
    for (const variant of VARIANTS) {
      const context = await ctx.browser.newContext({ colorScheme: variant.colorScheme, locale: variant.locale, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(READY_MS);
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(url());
        await ready(page);
        const lang = await page.$eval('compaction-playground', (e) => e.shadowRoot.querySelector('.pg').lang);
        assert.equal(lang, variant.locale.slice(0, 2), `${pageName}, ${variant.name}: the playground's language`);
        for await (const state of auditStates(page)) {
          const where = `${pageName}, ${variant.name}, ${state}`;
          for (const v of await seriousViolations(page)) problems.push(`${where}: axe ${v}`);
          for (const c of await page.evaluate(contrastFailures)) problems.push(`${where}: contrast ${c}`);
        }
        assert.deepEqual(errors, [], `${pageName}, ${variant.name}: page errors`);
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(problems, []);
  });
}
