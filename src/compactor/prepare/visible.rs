//! What a renderer's visibility function may do: read. `visible` is called once
//! per object and again for the objects of a tile the look-back counts itself,
//! so one that writes (read-write storage, workgroup memory, a writable storage
//! texture, an atomic) would write twice, or race the compaction's own
//! workgroup memory: refused at `prepare`, on its line, from naga's IR of the
//! renderer's WGSL, everything `visible` calls included.

use std::collections::HashSet;

use naga::{
    AddressSpace, Expression, Function, Handle, ImageClass, Module, Statement, StorageAccess,
    TypeInner,
};

use crate::error::{Error, Result};

/// `Err(Error::CullWrites)` for the first use of something writable in
/// `visible`'s call graph. WGSL that does not parse on its own (or has no
/// `visible`) is left to the compile, which says what is wrong with it.
pub(super) fn check(wgsl: &str) -> Result<()> {
    let Ok(module) = naga::front::wgsl::parse_str(wgsl) else {
        return Ok(());
    };
    let Some((entry, _)) = module
        .functions
        .iter()
        .find(|(_, f)| f.name.as_deref() == Some("visible"))
    else {
        return Ok(());
    };
    let mut seen = HashSet::new();
    let mut todo = vec![entry];
    while let Some(handle) = todo.pop() {
        if !seen.insert(handle) {
            continue;
        }
        let function = &module.functions[handle];
        let line = |span: naga::Span| {
            if span.is_defined() {
                span.location(wgsl).line_number
            } else {
                0
            }
        };
        for (expression, what) in function.expressions.iter() {
            if let Expression::GlobalVariable(global) = what {
                if let Some(why) = writable(
                    &module,
                    module.global_variables[*global].space,
                    module.global_variables[*global].ty,
                ) {
                    let name = module.global_variables[*global]
                        .name
                        .clone()
                        .unwrap_or_else(|| "a global".into());
                    return Err(Error::CullWrites {
                        line: line(function.expressions.get_span(expression)),
                        what: format!("`{name}`"),
                        why,
                    });
                }
            }
        }
        walk(&function.body, &mut todo, &line)?;
    }
    Ok(())
}

/// Why a global in `space` of type `ty` may be written, if it may.
fn writable(module: &Module, space: AddressSpace, ty: Handle<naga::Type>) -> Option<&'static str> {
    match space {
        AddressSpace::WorkGroup => {
            Some("a var<workgroup>, shared with the compaction's own workgroup memory")
        }
        AddressSpace::Storage { access } if access.contains(StorageAccess::STORE) => {
            Some("a var<storage, read_write>: declare it var<storage, read>")
        }
        AddressSpace::Handle => match module.types[ty].inner {
            TypeInner::Image {
                class: ImageClass::Storage { access, .. },
                ..
            } if access.contains(StorageAccess::STORE) => Some("a storage texture it may write"),
            _ => None,
        },
        _ => None,
    }
}

/// The calls of `block` (to walk next) and its atomic operations (refused).
fn walk(
    block: &naga::Block,
    todo: &mut Vec<Handle<Function>>,
    line: &dyn Fn(naga::Span) -> u32,
) -> Result<()> {
    for (statement, span) in block.span_iter() {
        match statement {
            Statement::Block(inner) => walk(inner, todo, line)?,
            Statement::If { accept, reject, .. } => {
                walk(accept, todo, line)?;
                walk(reject, todo, line)?;
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    walk(&case.body, todo, line)?;
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                walk(body, todo, line)?;
                walk(continuing, todo, line)?;
            }
            Statement::Call {
                function: called, ..
            } => todo.push(*called),
            Statement::Atomic { .. } | Statement::ImageAtomic { .. } => {
                return Err(Error::CullWrites {
                    line: line(*span),
                    what: "an atomic operation".into(),
                    why: "which writes",
                })
            }
            _ => {}
        }
    }
    Ok(())
}
