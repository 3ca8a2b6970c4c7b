// The code editor of the kernel panel: CodeMirror 6 with a small WGSL mode of
// our own, fetched as its own chunk on the first Edit (about 100 KiB). It
// mounts in the element's shadow root (its styles go there as a constructable
// sheet, which the element keeps), shows the compiler's messages on their line
// and column, and keeps the functions an exercise does not open read-only.

import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';

const KEYWORDS = new Set(
  'alias break case const const_assert continue continuing default diagnostic discard else enable fn for if let loop override requires return struct switch var while'.split(' '),
);
const TYPES = /^(bool|f16|f32|i32|u32|vec[234][fiuh]?|mat[234]x[234][fh]?|array|atomic|ptr|sampler|texture_\w+)$/;

/** WGSL as a stream of tokens: comments (block comments nest), attributes, keywords, types, numbers. */
const wgsl = StreamLanguage.define({
  name: 'wgsl',
  startState: () => ({ depth: 0 }),
  token(stream, state) {
    if (state.depth > 0) {
      while (!stream.eol()) {
        if (stream.match('/*')) state.depth++;
        else if (stream.match('*/')) {
          state.depth--;
          if (state.depth === 0) break;
        } else stream.next();
      }
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.depth = 1;
      return 'comment';
    }
    if (stream.match(/^@\s*\w+/)) return 'meta';
    if (stream.match(/^(0[xX][0-9a-fA-F]+|\d+\.?\d*([eE][+-]?\d+)?)[uif]?h?/)) return 'number';
    const word = stream.match(/^[A-Za-z_]\w*/);
    if (word) {
      const text = /** @type {RegExpMatchArray} */ (word)[0];
      if (KEYWORDS.has(text)) return 'keyword';
      if (TYPES.test(text)) return 'typeName';
      return stream.peek() === '(' ? 'variableName.function' : 'variableName';
    }
    stream.next();
    return null;
  },
});

const highlight = HighlightStyle.define([
  { tag: tags.comment, class: 'cm-wgsl-comment' },
  { tag: tags.keyword, class: 'cm-wgsl-keyword' },
  { tag: tags.typeName, class: 'cm-wgsl-type' },
  { tag: tags.meta, class: 'cm-wgsl-attribute' },
  { tag: tags.function(tags.variableName), class: 'cm-wgsl-function' },
]);

/**
 * An editor in `parent` (inside `root`, the element's shadow root).
 * @param {{ parent: HTMLElement, root: ShadowRoot | Document, text: string, label: string,
 *   readOnly?: { from: number, to: number }[], onChange: (text: string) => void }} options
 */
/**
 * Whether a change of `from`…`to` (an insertion where they are equal) stays
 * out of the `locked` ranges of a text `end` long: an insertion may sit where an
 * editable part begins or ends, not inside a locked range, between two of them,
 * nor before or after the text where a locked range starts or ends it.
 * @param {{ from: number, to: number }[]} locked  @param {number} from  @param {number} to  @param {number} end
 */
export function editable(locked, from, to, end) {
  if (from < to) return !locked.some((r) => from < r.to && to > r.from);
  if (locked.some((r) => r.from < from && from < r.to)) return false;
  const starts = locked.some((r) => r.from === from);
  const ends = locked.some((r) => r.to === from);
  if (starts && ends) return false;
  return !((starts && from === 0) || (ends && from === end));
}

export function createEditor({ parent, root, text, label, readOnly = [], onChange }) {
  /** @type {{ from: number, to: number }[]} */
  let locked = readOnly;
  const view = new EditorView({
    root,
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        history(),
        bracketMatching(),
        wgsl,
        syntaxHighlighting(highlight),
        lintGutter(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'kernel-editor' }),
        // An exercise's other functions stay as shipped: a change that touches them is dropped.
        EditorState.changeFilter.of((tr) => {
          if (!locked.length) return true;
          let ok = true;
          const end = tr.startState.doc.length;
          tr.changes.iterChangedRanges((from, to) => {
            if (!editable(locked, from, to, end)) ok = false;
          });
          return ok;
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          locked = locked.map((r) => ({ from: update.changes.mapPos(r.from, 1), to: update.changes.mapPos(r.to, -1) }));
          onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  // A focusable descendant in the tab order, as axe asks of a scrolling region (a contenteditable alone is not counted).
  view.contentDOM.tabIndex = 0;
  return {
    view,
    text: () => view.state.doc.toString(),
    /** Replaces the whole text (a reset, a link): locked ranges as given. */
    setText(next, ranges = []) {
      locked = [];
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
      locked = ranges;
    },
    /**
     * The compiler's messages: `line`/`column` 1-based, UTF-16 (as the document counts).
     * @param {{ severity: 'error' | 'warning' | 'info', message: string, line: number, column: number, length: number }[]} list
     */
    show(list) {
      const doc = view.state.doc;
      const placed = list
        .filter((d) => d.line >= 1 && d.line <= doc.lines)
        .map((d) => {
          const line = doc.line(d.line);
          const from = Math.min(line.from + Math.max(d.column - 1, 0), line.to);
          const to = Math.min(from + Math.max(d.length, 1), line.to);
          return { from, to: Math.max(to, from), severity: d.severity, message: d.message };
        });
      view.dispatch(setDiagnostics(view.state, placed));
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
