// The message tables (www/i18n/): the same keys and placeholders in every
// language, the loader's own words too, and the translator.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { MESSAGES } from '../../www/i18n/all.js';
import { LOADER_MESSAGES } from '../../www/i18n/loader.js';
import { PAGE_MESSAGES } from '../../www/page/page-messages.js';
import { LANGS, pickLang } from '../../www/i18n/langs.js';
import { PANELS_WITH_WORDS as PANEL_TABLES } from '../../www/core/panels.js';
import { translator, loadTranslator, messages } from '../../www/i18n/i18n.js';

const { en, es } = MESSAGES;

const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

function sameShape(tables, what) {
  const [first, ...rest] = LANGS.map((l) => tables[l]);
  for (const [k, table] of rest.entries()) {
    assert.deepEqual(Object.keys(table).sort(), Object.keys(first).sort(), `${what}: ${LANGS[k + 1]} has the keys of ${LANGS[0]}`);
    for (const key of Object.keys(first)) assert.deepEqual(holes(table[key]), holes(first[key]), `${what}: ${key}`);
  }
}

test('every table has the same keys and placeholders in every language', () => {
  sameShape({ en, es }, 'playground');
  sameShape(LOADER_MESSAGES, 'loader');
  sameShape(PAGE_MESSAGES, 'page');
});

test('only the language asked for is loaded, once', async () => {
  assert.equal(await messages('es'), await messages('es'));
  assert.equal((await loadTranslator('es-MX')).lang, 'es');
  assert.equal((await loadTranslator('fr')).lang, 'en');
});

test('the language: the tag asked for, else the browser’s, else English', () => {
  assert.equal(pickLang('es-AR', []), 'es');
  assert.equal(pickLang(null, ['fr-FR', 'es']), 'es');
  assert.equal(pickLang('', ['de']), 'en');
});

test('the translator fills placeholders, formats numbers for the language and says which key is missing', () => {
  const t = translator('es', { greet: '{n} flags de {who}', 'x.one': 'un flag', 'x.other': '{n} flags' });
  assert.equal(t('greet', { n: 1234567, who: 'la GPU' }), '1.234.567 flags de la GPU');
  assert.equal(t.plural('x', 1), 'un flag');
  assert.equal(t.plural('x', 3), '3 flags');
  assert.equal(t.fixed(0.5, 2), '0,50');
  assert.throws(() => t('nope'), /nope/);
  assert.equal(translator('en', { a: '{n}' })('a', { n: 1234 }), '1,234');
});

test('each panel’s words are in its own table, and a translator adds a panel’s table as the panel is built', async () => {
  for (const lang of LANGS) {
    const core = await messages(lang);
    for (const panel of PANEL_TABLES) {
      const own = await messages(lang, panel);
      assert.ok(Object.keys(own).length > 0, `${lang}/${panel}`);
      for (const key of Object.keys(own)) assert.ok(key.startsWith(`${panel}.`), `${lang}/${panel}: ${key} is another's`);
    }
    for (const key of Object.keys(core)) assert.ok(!PANEL_TABLES.includes(key.split('.')[0]), `${lang}/core: ${key} belongs to a panel`);
    const t = await loadTranslator(lang);
    assert.throws(() => t('tiles.one', { t: 1 }), /tiles\.one/);
    await t.load('tiles');
    assert.equal(t('tiles.one', { t: 1 }), (lang === 'en' ? en : es)['tiles.one'].replace('{t}', '1'));
    await t.load('editor'); // a panel without words of its own
    assert.equal(await messages(lang, 'tiles'), await messages(lang, 'tiles'));
  }
});

test('a panel’s words are used by that panel alone (so that fetching them with it suffices)', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const root = path.join(import.meta.dirname, '..', '..', 'www');
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.js') && !f.startsWith('i18n'));
  for (const file of files) {
    const text = await readFile(path.join(root, file), 'utf8');
    for (const panel of PANEL_TABLES) {
      if (!new RegExp(`['\`]${panel}\\.[A-Za-z]`).test(text)) continue;
      assert.ok(file.startsWith(path.join('panels', panel)), `${file} uses the ${panel} panel's words`);
    }
  }
});

// ../shared/review/spanish.md: the article's terms (Compactar los visibles) in
// every Spanish string the page, the loader and the playground show.
const SPANISH_TERMS = [
  [/escane/i, 'scan (el scan), as the article says, not escaneo'],
  [/búfer/i, 'buffer, as the article says'],
  [/suma prefija/i, 'prefix sum (el prefix sum exclusivo)'],
  [/\bposici[oó]n(es)?\b/i, 'hueco for a slot, as the article says'],
  [/\brachas?\b/i, 'tramo contiguo, not racha'],
  [/\bconteos?\b/i, 'recuento, not conteo'],
  [/(leíd[oa]s?|sumad[oa]s?) de vuelta/i, 'leído desde la GPU'],
  [/\b(la|una) scan\b/i, 'scan is masculine'],
];

test('the Spanish tables use the article’s terms', () => {
  const tables = { playground: es, loader: LOADER_MESSAGES.es, page: PAGE_MESSAGES.es };
  for (const [what, table] of Object.entries(tables)) {
    for (const [key, text] of Object.entries(table)) {
      for (const [pattern, term] of SPANISH_TERMS) assert.doesNotMatch(text, pattern, `${what} ${key}: ${term}`);
    }
  }
  // And the terms are there: the scan, its buffers, the slot.
  assert.match(es['card.scan'], /El scan/);
  assert.match(es['result.listTitle'], /hueco/);
  assert.match(es['method.scan.info'], /prefix sum exclusivo/);
});
