// The library's public API as a sorted listing, one item per line (every
// public path, struct field, enum variant, function signature, trait impl and
// #[non_exhaustive]), from rustdoc's JSON: api/wgpu-compaction.txt holds the
// listing of the version in its first line. A removed or changed line breaks
// a dependent's build (or may), so semver wants a new minor in 0.x (a new
// major from 1.0).
//
//   node scripts/public-api.mjs --check   the listing is the committed one, and nothing
//                                         of the newest v* tag's is gone without a bump
//   node scripts/public-api.mjs --write   writes it (refused if it removes lines and the
//                                         version's minor is the committed listing's)
//
// scripts/check-library.sh runs --check (npm test). rustdoc's JSON is unstable
// output: it is read with RUSTC_BOOTSTRAP=1 from the stable toolchain, and this
// file reads the fields of its format 57 (Rust 1.95).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const LISTING = 'api/wgpu-compaction.txt';
const CRATE = 'wgpu-compaction';
/**
 * Modules public for the playground and the tests, whose items may change in
 * any release (their docs say so): listed by name only.
 */
const OUTSIDE = ['wgpu_compaction::teaching'];

/** The version a listing's first line names. */
export const versionOf = (listing) => /^# \S+ (\S+)/.exec(listing)?.[1] ?? null;

/** What semver keeps compatible: 0.x's minor, else the major. */
export function line(version) {
  const [major, minor] = String(version).split('.').map(Number);
  return major === 0 ? `0.${minor}` : `${major}`;
}

/**
 * What a listing `current` of `version` may be, against the committed one and
 * the newest tag's (null where there is none): `{ ok, problems[] }`.
 */
export function judge({ current, version, committed, tagged = null, tag = null }) {
  const body = (text) => text.split('\n').filter((l) => l && !l.startsWith('#'));
  const gone = (before, after) => {
    const now = new Set(body(after));
    return body(before).filter((l) => !now.has(l));
  };
  const problems = [];
  if (committed === null) problems.push(`${LISTING} is missing: node scripts/public-api.mjs --write`);
  else if (body(committed).join('\n') !== body(current).join('\n')) {
    const removed = gone(committed, current);
    const added = gone(current, committed);
    problems.push(
      `the public API is not ${LISTING}'s: ${removed.length} line(s) gone or changed, ${added.length} new` +
        `${[...removed.map((l) => `\n  - ${l}`), ...added.map((l) => `\n  + ${l}`)].slice(0, 40).join('')}` +
        `\n  (after a bump where lines are gone: node scripts/public-api.mjs --write)`,
    );
  }
  if (tagged !== null) {
    const removed = gone(tagged, current);
    const was = versionOf(tagged);
    if (removed.length && line(was) === line(version))
      problems.push(
        `${removed.length} item(s) of ${tag} (${was}) are gone or changed, and the version is still ${version}: ` +
          `a break needs ${line(was).startsWith('0.') ? 'a new minor' : 'a new major'}` +
          removed
            .slice(0, 20)
            .map((l) => `\n  - ${l}`)
            .join(''),
      );
  }
  return { ok: problems.length === 0, problems };
}

// ---- rustdoc JSON to a listing ----

/** rustdoc's `paths` (id -> crate and definition path), for names as a dependent writes them. */
let paths = {};
/** The crates by id (`external_crates`), 0 being this one. */
let crates = {};

/**
 * A path as a dependent names it, whatever the source wrote (`crate::error::Result`,
 * `super::Compactor`): this crate's items by their name, another crate's as
 * `crate::Name` (`wgpu::Buffer`, `std::ops::Range`), so that moving an item between
 * private modules is no change.
 */
function pathOf(v) {
  const known = paths[String(v.id)];
  const name = v.path.split('::').pop();
  if (!known || known.crate_id === 0) return name;
  const krate = crates[String(known.crate_id)] ?? known.path[0];
  return `${krate === 'wgpu_types' || krate === 'wgpu_core' ? 'wgpu' : krate === 'core' || krate === 'alloc' ? 'std' : krate}::${name}`;
}

function typeOf(t) {
  if (t === null || t === undefined) return '()';
  const [kind, v] = Object.entries(t)[0];
  switch (kind) {
    case 'resolved_path':
      return `${pathOf(v)}${argsOf(v.args)}`;
    case 'primitive':
      return v;
    case 'generic':
      return v;
    case 'borrowed_ref':
      return `&${v.lifetime ? `${v.lifetime} ` : ''}${v.is_mutable ? 'mut ' : ''}${typeOf(v.type)}`;
    case 'raw_pointer':
      return `*${v.is_mutable ? 'mut' : 'const'} ${typeOf(v.type)}`;
    case 'tuple':
      return `(${v.map(typeOf).join(', ')})`;
    case 'slice':
      return `[${typeOf(v)}]`;
    case 'array':
      return `[${typeOf(v.type)}; ${v.len}]`;
    case 'impl_trait':
      return `impl ${v.map(boundOf).join(' + ')}`;
    case 'dyn_trait':
      return `dyn ${v.traits.map((p) => `${p.trait.path}${argsOf(p.trait.args)}`).join(' + ')}${v.lifetime ? ` + ${v.lifetime}` : ''}`;
    case 'qualified_path':
      return `<${typeOf(v.self_type)}${v.trait ? ` as ${v.trait.path}` : ''}>::${v.name}`;
    case 'function_pointer':
      return `fn(${v.sig.inputs.map(([, ty]) => typeOf(ty)).join(', ')}) -> ${typeOf(v.sig.output)}`;
    default:
      return `<${kind}>`;
  }
}

function argsOf(args) {
  if (!args) return '';
  if (args.angle_bracketed) {
    const list = [
      ...args.angle_bracketed.args.map((a) => (a.type ? typeOf(a.type) : a.lifetime ? a.lifetime : a.const ? a.const.expr : '_')),
      ...args.angle_bracketed.constraints.map((c) => `${c.name} = ${c.binding?.equality?.type ? typeOf(c.binding.equality.type) : '_'}`),
    ];
    return list.length ? `<${list.join(', ')}>` : '';
  }
  if (args.parenthesized) return `(${args.parenthesized.inputs.map(typeOf).join(', ')}) -> ${typeOf(args.parenthesized.output)}`;
  return '';
}

function boundOf(b) {
  if (b.trait_bound) return `${b.trait_bound.trait.path}${argsOf(b.trait_bound.trait.args)}`;
  if (b.outlives) return b.outlives;
  return '?';
}

function genericsOf(g) {
  const params = (g?.params ?? [])
    .filter((p) => !(p.kind.type?.is_synthetic ?? false))
    .map((p) => {
      if (p.kind.lifetime) return p.name;
      if (p.kind.const) return `const ${p.name}: ${typeOf(p.kind.const.type)}`;
      const bounds = p.kind.type?.bounds ?? [];
      return bounds.length ? `${p.name}: ${bounds.map(boundOf).join(' + ')}` : p.name;
    });
  return params.length ? `<${params.join(', ')}>` : '';
}

function signatureOf(name, f) {
  const h = f.header;
  const head = `${h.is_const ? 'const ' : ''}${h.is_async ? 'async ' : ''}${h.is_unsafe ? 'unsafe ' : ''}fn`;
  const inputs = f.sig.inputs.map(([n, ty]) =>
    n === 'self'
      ? typeOf(ty)
          .replace(/^&(.*)Self$/, '&$1self')
          .replace(/^Self$/, 'self')
      : `${n}: ${typeOf(ty)}`,
  );
  const output = f.sig.output ? ` -> ${typeOf(f.sig.output)}` : '';
  return `${head} ${name}${genericsOf(f.generics)}(${inputs.join(', ')})${output}`;
}

/** The listing of rustdoc's JSON `doc` for the crate at `version`. */
export function listingOf(doc, version) {
  const index = doc.index;
  paths = doc.paths;
  crates = Object.fromEntries(Object.entries(doc.external_crates ?? {}).map(([id, c]) => [id, c.name]));
  const item = (id) => index[String(id)];
  const out = new Set();
  const flag = (i) => ((i.attrs ?? []).some((a) => a === 'non_exhaustive' || a?.other?.includes?.('non_exhaustive')) ? ' #[non_exhaustive]' : '');
  const seen = new Set();

  const implsOf = (ids, at) => {
    for (const id of ids) {
      const impl = item(id)?.inner?.impl;
      if (!impl || impl.blanket_impl) continue;
      if (impl.trait) {
        out.add(`impl ${impl.trait.path}${argsOf(impl.trait.args)} for ${at}${impl.is_negative ? ' (negative)' : ''}`);
        continue;
      }
      for (const m of impl.items) {
        const it = item(m);
        if (it?.visibility !== 'public') continue;
        if (it.inner.function) out.add(`${signatureOf(`${at}::${it.name}`, it.inner.function)}`);
        else if (it.inner.assoc_const) out.add(`const ${at}::${it.name}: ${typeOf(it.inner.assoc_const.type)}`);
      }
    }
  };

  const fieldsOf = (kind, at) => {
    if (kind.plain) {
      for (const f of kind.plain.fields) {
        const it = item(f);
        if (it && it.visibility === 'public') out.add(`field ${at}.${it.name}: ${typeOf(it.inner.struct_field)}`);
      }
      if (kind.plain.has_stripped_fields) out.add(`${at} has private fields`);
    } else if (kind.tuple) {
      kind.tuple.forEach((f, k) => {
        const it = f === null ? null : item(f);
        if (it && it.visibility === 'public') out.add(`field ${at}.${k}: ${typeOf(it.inner.struct_field)}`);
      });
    }
  };

  const visit = (id, at) => {
    const it = item(id);
    if (it?.crate_id !== 0) return;
    const key = `${id}@${at}`;
    if (seen.has(key)) return;
    seen.add(key);
    const inner = it.inner;
    if (inner.module) {
      if (OUTSIDE.includes(at)) {
        out.add(`mod ${at} (outside semver: see its docs)`);
        return;
      }
      out.add(`mod ${at}`);
      for (const child of inner.module.items) {
        const c = item(child);
        if (c?.visibility !== 'public') continue;
        if (c.inner.use) {
          const u = c.inner.use;
          if (u.is_glob) {
            const target = item(u.id);
            for (const g of target?.inner?.module?.items ?? []) if (item(g)?.visibility === 'public') visit(g, `${at}::${item(g).name}`);
          } else if (u.id !== null && u.id !== undefined) visit(u.id, `${at}::${u.name}`);
          else out.add(`use ${at}::${u.name} = ${u.source}`);
        } else visit(child, `${at}::${c.name}`);
      }
    } else if (inner.struct) {
      out.add(`struct ${at}${genericsOf(inner.struct.generics)}${flag(it)}`);
      fieldsOf(inner.struct.kind, at);
      implsOf(inner.struct.impls, at);
    } else if (inner.enum) {
      out.add(`enum ${at}${genericsOf(inner.enum.generics)}${flag(it)}`);
      for (const v of inner.enum.variants) {
        const variant = item(v);
        out.add(`variant ${at}::${variant.name}${flag(variant)}`);
        fieldsOf(variant.inner.variant.kind, `${at}::${variant.name}`);
      }
      implsOf(inner.enum.impls, at);
    } else if (inner.function) out.add(signatureOf(at, inner.function));
    else if (inner.constant) {
      const expr = inner.constant.const.expr;
      out.add(`const ${at}: ${typeOf(inner.constant.type)} = ${expr.includes('\n') || expr.length > 60 ? `${JSON.stringify(expr).slice(0, 40)}…` : expr}`);
    } else if (inner.static) out.add(`static ${at}: ${typeOf(inner.static.type)}`);
    else if (inner.type_alias) out.add(`type ${at}${genericsOf(inner.type_alias.generics)} = ${typeOf(inner.type_alias.type)}`);
    else if (inner.trait) {
      out.add(`trait ${at}${genericsOf(inner.trait.generics)}`);
      for (const m of inner.trait.items) {
        const t = item(m);
        if (t?.inner?.function) out.add(signatureOf(`${at}::${t.name}`, t.inner.function));
      }
    } else out.add(`${Object.keys(inner)[0]} ${at}`);
  };

  visit(doc.root, 'wgpu_compaction');
  return `# ${CRATE} ${version} public API (scripts/public-api.mjs; rustdoc JSON format ${doc.format_version})\n${[...out].sort().join('\n')}\n`;
}

// ---- the command ----

function cargoVersion() {
  const toml = readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8');
  const pkg = toml.slice(toml.indexOf('[package]'));
  return /^version = "([^"]+)"/m.exec(pkg)[1];
}

function rustdocJson() {
  execFileSync('cargo', ['rustdoc', '-p', CRATE, '--lib', '-q', '--', '-Zunstable-options', '--output-format', 'json'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, RUSTC_BOOTSTRAP: '1' },
  });
  return JSON.parse(readFileSync(path.join(ROOT, 'target', 'doc', 'wgpu_compaction.json'), 'utf8'));
}

/** The newest v* tag and its listing, if the repository has one that holds a listing. */
function newestTag() {
  try {
    const tags = execFileSync('git', ['tag', '--list', 'v*', '--sort=-v:refname'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    for (const tag of tags) {
      try {
        return { tag, tagged: execFileSync('git', ['show', `${tag}:${LISTING}`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) };
      } catch {}
    }
  } catch {}
  return { tag: null, tagged: null };
}

async function main() {
  const mode = process.argv[2];
  if (mode !== '--check' && mode !== '--write') throw new Error('usage: node scripts/public-api.mjs --check | --write');
  const version = cargoVersion();
  const current = listingOf(rustdocJson(), version);
  const file = path.join(ROOT, LISTING);
  const committed = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const { tag, tagged } = newestTag();
  if (mode === '--write') {
    const verdict = judge({ current, version, committed: current, tagged: committed, tag: LISTING });
    if (!verdict.ok) throw new Error(`public-api: not written:\n${verdict.problems.join('\n')}`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, current);
    console.log(`public-api: wrote ${LISTING} (${current.split('\n').length - 2} items of ${version})`);
    return;
  }
  const verdict = judge({ current, version, committed, tagged, tag });
  console.log(
    `public-api: ${current.split('\n').length - 2} items of ${CRATE} ${version}; ` +
      (tag ? `against ${tag}'s listing (${versionOf(tagged)}) and ${LISTING}` : `no v* tag holds a listing: against ${LISTING} only`),
  );
  if (!verdict.ok) {
    console.error(`public-api: ERROR:\n${verdict.problems.join('\n')}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
