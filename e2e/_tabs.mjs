import { launchBrowser } from './browser.mjs';
import { ready } from './helpers.mjs';
import { startSite } from './site.mjs';
const site = await startSite();
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.setDefaultTimeout(120000);
await page.goto(`${site.assetsUrl}index.html#flags=1001101001&method=scan`);
await ready(page);
let inside = false;
for (let k = 0; k < 120; k++) {
  await page.keyboard.press('Tab');
  const f = await page.evaluate(() => {
    const host = document.querySelector('compaction-playground');
    if (document.activeElement !== host) return null;
    const el = host.shadowRoot.activeElement;
    return `${el.localName} ${el.dataset.testid ?? ''} ${el.getAttribute('aria-label') ?? el.textContent.slice(0, 30)} [${el.closest('section')?.dataset.panel}]`;
  });
  if (f) {
    inside = true;
    console.log(k, f);
  } else if (inside) break;
}
await browser.close();
await site.close();
