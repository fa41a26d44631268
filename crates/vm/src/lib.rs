//! jxvm's runtime: a Java virtual machine that boots the real OpenJDK 17 class library.
//!
//! Below this crate: `base` (ids, the object layout, id tables, resource accounts), `meta`
//! (class metadata, pre-decoded code, the jx API's classes, intrinsics), `heap` (object
//! memory, the collector's mechanics, the object-graph copier) and `port` (the host
//! interface, a `Host` trait object per domain, the host backend behind it, one `Errno`
//! error type).
//!
//! Public: only [`embed`], the API a program that runs jxvm (the `jxvm` launcher) uses. Every
//! other module is the crate's own (`pub(crate)`).
//!
//! Layout (each module's doc says what it owns and what it must not touch):
//! - [`embed`]: booting a VM, running a main class or a system's domains, the launcher's
//!   queries.
//! - `offsets`: every offset compiled code reads or writes (header, array, thread, class).
//! - `class`, `code`, `api`: the metadata layer's modules (crate `meta`) under the paths the
//!   runtime names them by: shared, immutable class metadata (loading, layout, dispatch,
//!   resolution); a method's pre-decoded code and the analyses every engine shares (stack
//!   effects, frame-bounds proof, reference maps, NPE messages, inline caches); the jx API
//!   module's classes and their access rules.
//! - `heap`, `graph` (crate `heap`, below this one, under the paths the runtime names them
//!   by): raw object memory of a domain, the object layout, allocation buffers, the write
//!   barrier and the collector's mechanics; the object-graph copier (portals, later channels
//!   between processes).
//! - `gc`: a domain's collections: stopping its threads, their roots and the domain's,
//!   references, class unloading, verification (the layer that knows threads and domains).
//! - `memory`: memory objects (JX's off-heap memory with revocable views).
//! - `pso`: Pre-Serialized Objects: PSOs and PSO arrays over a container's bytes, and the
//!   accesses the code mappings turn their field reads and writes into.
//! - `domain`: per-domain mutable state (mirrors and statics, init states, strings, monitors).
//! - `thread`: Java threads, frames, monitors.
//! - `interp`: the interpreter loop and its unchecked frame access.
//! - `invoke`: invokedynamic intrinsics (lambdas, string concatenation, record methods).
//! - `runtime`: allocation, initialization, strings, exceptions and calls on a thread.
//! - `jdk`: the JDK classes' fields the VM reads and writes, resolved once.
//! - `assertions`: which classes run their `assert` statements (-ea, -da, -esa, -dsa).
//! - `native`: native methods, one module per Java package family.
//! - `vm`: process-wide state and the boot sequence.
//! - `fork`: a VM booted to be forked by the fork server, and a forked child taking over its
//!   client's run.

// `unsafe` is denied everywhere but in the modules (and the few functions) that allow it
// with their reason.
#![deny(unsafe_code)]

pub(crate) mod assertions;
pub(crate) mod class_cache;
pub(crate) mod domain;
pub mod embed;
pub(crate) mod fork;
pub(crate) mod gc;
pub(crate) mod interp;
pub(crate) mod invoke;
pub(crate) mod jdk;
#[allow(unsafe_code)] // off-heap mappings shared between domains
pub(crate) mod memory;
pub(crate) mod native;
pub(crate) mod offsets;
#[allow(unsafe_code)] // PSO fields and arrays are read and written at addresses in containers
pub(crate) mod pso;
pub(crate) mod runtime;
pub(crate) mod thread;
pub(crate) mod vm;

// The metadata layer, under the paths the runtime's modules name it by.
pub(crate) use meta::{api, class, code};
// The object memory layer (crate `heap`), under the paths the runtime's modules name it by.
pub(crate) use ::heap::{self, graph};
