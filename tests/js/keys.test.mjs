// Which keys stay inside the element (www/loader/keys.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { staysInside, controlKind, movesControl } from '../../www/loader/keys.js';

/** A stand-in for an element of the shadow root. */
const el = (localName, type = null, extra = {}) => ({ localName, getAttribute: (a) => (a === 'type' ? type : (extra[a] ?? null)), isContentEditable: false, ...extra });
const key = (k, mods = {}) => ({ key: k, ...mods });

test('controls by kind', () => {
  assert.equal(controlKind(el('textarea')), 'text');
  assert.equal(controlKind(el('input', 'number')), 'text');
  assert.equal(controlKind(el('input', null)), 'text');
  assert.equal(controlKind(el('input', 'range')), 'slider');
  assert.equal(controlKind(el('input', 'radio')), 'choice');
  assert.equal(controlKind(el('select')), 'list');
  assert.equal(controlKind(el('button')), 'button');
  assert.equal(controlKind(el('span', null, { isContentEditable: true })), 'text');
  assert.equal(controlKind(el('div')), null);
  assert.equal(controlKind(null), null);
});

test('typed into a text box or a list: every plain key stays, shortcuts with Ctrl, ⌘ or Alt go on', () => {
  for (const target of [el('textarea'), el('input', 'text'), el('select')]) {
    for (const k of ['/', 'p', 'n', 's', '?', 'a', 'ArrowLeft', 'Home', 'End', 'Enter', ' ', 'Backspace']) assert.equal(staysInside(key(k), target, false), true, `${target.localName}: ${k}`);
    assert.equal(staysInside(key('k', { ctrlKey: true }), target, false), false);
    assert.equal(staysInside(key('k', { metaKey: true }), target, false), false);
  }
});

test('Tab and Escape always reach the site, even when the element used them', () => {
  for (const target of [el('textarea'), el('button'), null]) {
    assert.equal(staysInside(key('Tab'), target, true), false);
    assert.equal(staysInside(key('Escape'), target, true), false);
  }
});

test('a key the element used stays, whatever the control; a named key it did not use on a button goes on', () => {
  assert.equal(staysInside(key('p'), el('button'), true), true);
  assert.equal(staysInside(key('ArrowRight', { altKey: true }), el('button'), true), true);
  assert.equal(staysInside(key('ArrowLeft'), el('button'), false), false);
  assert.equal(staysInside(key('F1'), el('button'), false), false);
  assert.equal(staysInside(key('Enter'), el('button'), false), true);
  assert.equal(staysInside(key(' '), el('button'), false), true);
  assert.equal(staysInside(key('ArrowRight'), el('input', 'range'), false), true);
  assert.equal(staysInside(key('PageDown'), el('input', 'range'), false), true);
  assert.equal(staysInside(key('Backspace'), el('input', 'range'), false), false);
  assert.equal(staysInside(key('ArrowDown'), el('input', 'radio'), false), true);
  assert.equal(staysInside(key('ArrowLeft'), el('div'), false), false);
});

test('an unmodified character key stays wherever the focus is inside the element (the site sees the element, not a button)', () => {
  for (const target of [el('button'), el('input', 'range'), el('input', 'checkbox'), el('div', null, { role: 'grid' }), el('div')]) {
    for (const k of ['/', 'n', 'p', 's', '?', 'é', '😀']) assert.equal(staysInside(key(k), target, false), true, `${target.localName}: ${k}`);
    assert.equal(staysInside(key('/', { ctrlKey: true }), target, false), false);
    assert.equal(staysInside(key('k', { altKey: true }), target, false), false);
  }
});

test('arrows, Home and End on a radio group or a slider move it: no stepper shortcut takes them', () => {
  for (const target of [el('input', 'radio'), el('input', 'RADIO'), el('input', 'range')]) {
    for (const k of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']) assert.equal(movesControl(target, k), true, `${target.getAttribute('type')}: ${k}`);
    for (const k of ['n', 'p', 'Enter', ' ']) assert.equal(movesControl(target, k), false, `${target.getAttribute('type')}: ${k}`);
  }
  // A checkbox or a button does nothing with arrows: the stepper may have them.
  for (const target of [el('input', 'checkbox'), el('button'), el('div'), null]) assert.equal(movesControl(target, 'ArrowLeft'), false);
});
