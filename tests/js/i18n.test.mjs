// The message tables (www/i18n/): the same keys and placeholders in every
// language, the loader's own words too, and the translator.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { en } from '../../www/i18n/en.js';
import { es } from '../../www/i18n/es.js';
import { LOADER_MESSAGES } from '../../www/i18n/loader.js';
import { PAGE_MESSAGES } from '../../www/page/page-messages.js';
import { LANGS, pickLang } from '../../www/i18n/langs.js';
import { translator, loadTranslator, messages } from '../../www/i18n/i18n.js';

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
