//! Native methods: one module per Java package family, all registered in one table.
//!
//! A native is `fn(&mut JThread, &[u64]) -> JResult<u64>`: arguments arrive as slots (the
//! receiver first for instance methods; longs and doubles take two slots), the result is a
//! slot value. A native method with no entry here throws `UnsatisfiedLinkError` naming the
//! method — never a made-up default. Natives reach the host only through [`port`].
//! The table binds only to classes of the boot and platform loaders (see [`invoke_native`]).

pub mod auth;
pub mod confine;
pub mod domain;
pub mod io;
pub mod ipc;
pub mod jli;
pub mod lang;
pub mod management;
pub mod memory;
pub mod misc;
pub mod net;
pub mod nio;
pub mod portal;
pub mod prefs;
pub mod process;
pub mod pso;
pub mod reflect;
pub mod remote;
pub mod sctp;
pub mod stackwalk;
pub mod thread;
pub mod util;
#[allow(unsafe_code)] // zlib, the system library the JDK's zip natives use
pub mod zip;

use rustc_hash::FxHashMap;

use crate::class::{BasicType, LoaderId, Method, NativeId};
use crate::heap::{ObjRef, from_slot};
use crate::thread::{FrameRec, JResult, JThread};

pub type NativeFn = fn(&mut JThread, &[u64]) -> JResult<u64>;

/// Every native function, found by class, name and descriptor; class metadata records the
/// [`NativeId`] of a method's function, its index in `fns`.
pub struct Registry {
    map: FxHashMap<(&'static str, &'static str, &'static str), NativeId>,
    fns: Vec<NativeFn>,
}

/// Does nothing: `registerNatives` and `initIDs`, which only cache JNI ids in the JDK's C code.
pub const NOP: NativeId = NativeId(0);
/// `writeReplace` of a serializable lambda's proxy class (bound by `invoke::lambda`).
pub const LAMBDA_WRITE_REPLACE: NativeId = NativeId(1);
/// A portal stub's methods, which forward the call to the service (bound by `domain::stub`).
pub const PORTAL_FORWARD: NativeId = NativeId(2);

impl Default for Registry {
    fn default() -> Self {
        Self::new()
    }
}

impl Registry {
    pub fn new() -> Registry {
        let mut r = Registry {
            map: FxHashMap::default(),
            fns: vec![
                nop,
                crate::invoke::lambda::write_replace,
                crate::domain::stub::forward,
            ],
        };
        lang::register(&mut r);
        thread::register(&mut r);
        misc::register(&mut r);
        management::register(&mut r);
        io::register(&mut r);
        nio::register(&mut r);
        net::register(&mut r);
        jli::register(&mut r);
        reflect::register(&mut r);
        stackwalk::register(&mut r);
        util::register(&mut r);
        process::register(&mut r);
        zip::register(&mut r);
        memory::register(&mut r);
        domain::register(&mut r);
        portal::register(&mut r);
        prefs::register(&mut r);
        sctp::register(&mut r);
        auth::register(&mut r);
        ipc::register(&mut r);
        pso::register(&mut r);
        r
    }
    /// Registers `f` for `class.name desc`; an empty `desc` matches any descriptor.
    pub fn add(
        &mut self,
        class: &'static str,
        name: &'static str,
        desc: &'static str,
        f: NativeFn,
    ) {
        let id = NativeId(self.fns.len() as u32);
        self.fns.push(f);
        self.map.insert((class, name, desc), id);
    }
    /// The function with id `id` (one this registry handed out).
    #[inline]
    pub fn function(&self, id: NativeId) -> NativeFn {
        self.fns[id.0 as usize]
    }
    pub fn lookup(&self, class: &str, name: &str, desc: &str) -> Option<NativeId> {
        // The map is keyed by &'static str; look up through a temporary key of borrowed strs.
        let key: (&str, &str, &str) = (class, name, desc);
        self.map
            .get(&key)
            .or_else(|| self.map.get(&(class, name, "")))
            .copied()
    }
}

impl Registry {
    /// The function a native method of a boot or platform class binds to: its entry in the
    /// table, else, for `registerNatives` and `initIDs` when `static_void` (they only cache
    /// JNI ids in the JDK's C code), [`NOP`]; None: the method throws `UnsatisfiedLinkError`.
    pub fn binding(
        &self,
        class: &str,
        name: &str,
        desc: &str,
        static_void: bool,
    ) -> Option<NativeId> {
        self.lookup(class, name, desc)
            .or((static_void && matches!(name, "registerNatives" | "initIDs")).then_some(NOP))
    }
}

fn nop(_: &mut JThread, _: &[u64]) -> JResult<u64> {
    Ok(0)
}

/// Runs native method `m` with arguments at `t.stack[base..]`.
pub fn invoke_native(t: &mut JThread, m: &'static Method, base: usize) -> JResult<u64> {
    let f = *m.native.get_or_init(|| {
        // The table's natives belong to the JDK's and the API's classes: a class of the same
        // name defined by another loader (a program's own `jx/memory/Memory`) gets none of
        // them, or it could point them at memory of its choosing.
        let builtin = matches!(m.class.loader, LoaderId::BOOT | LoaderId::PLATFORM);
        builtin
            .then(|| {
                t.vm.natives.binding(
                    &m.class.name,
                    &m.name,
                    &m.descriptor,
                    m.is_static() && m.ret == BasicType::Void,
                )
            })
            .flatten()
    });
    let Some(f) = f.map(|id| t.vm.natives.function(id)) else {
        let msg = format!(
            "'{}'",
            crate::class::resolve::pretty_method(m.class, &m.name, &m.descriptor)
        );
        return Err(t.throw_new("java/lang/UnsatisfiedLinkError", Some(&msg)));
    };
    let n = m.arg_slots as usize;
    let mut buf = [0u64; 24];
    let args: Vec<u64>;
    let args: &[u64] = if n <= buf.len() {
        buf[..n].copy_from_slice(&t.stack[base..base + n]);
        &buf[..n]
    } else {
        args = t.stack[base..base + n].to_vec();
        &args
    };
    let saved_sp = t.sp;
    let handles_mark = t.handles.len();
    t.sp = base + n;
    t.frames.push(FrameRec {
        method: m,
        pc: u32::MAX,
        bp: base as u32,
    });
    let r = f(t, args);
    t.frames.pop();
    t.handles.truncate(handles_mark);
    t.sp = saved_sp;
    let r = r?;
    Ok(match m.ret {
        BasicType::Boolean => (r != 0) as u64,
        _ => r,
    })
}

// ---- helpers for natives ----

pub fn obj(v: u64) -> Option<ObjRef> {
    from_slot(v)
}

/// Non-null argument or NullPointerException.
pub fn nonnull(t: &mut JThread, v: u64) -> JResult<ObjRef> {
    match from_slot(v) {
        Some(o) => Ok(o),
        None => Err(t.throw_new("java/lang/NullPointerException", None)),
    }
}

/// A copy of `len` bytes at `off` of byte array `arr`, or ArrayIndexOutOfBoundsException.
pub fn bytes_of(t: &mut JThread, arr: u64, off: i32, len: i32) -> JResult<Vec<u8>> {
    let arr = nonnull(t, arr)?;
    let data = arr.array_slice::<u8>();
    if off < 0 || len < 0 || off as usize + len as usize > data.len() {
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
    }
    Ok(data[off as usize..off as usize + len as usize].to_vec())
}

pub fn jint(v: u64) -> i32 {
    v as i32
}
pub fn jlong(v: u64) -> i64 {
    v as i64
}
pub fn ret_int(v: i32) -> u64 {
    v as u32 as u64
}
/// A descriptor passed to a native as a Java int (the number `sun.nio` and
/// `FileDescriptor.fd` hold).
pub fn jfd(v: u64) -> port::Fd {
    port::Fd(jint(v))
}
/// A descriptor returned to Java as an int.
pub fn ret_fd(fd: port::Fd) -> u64 {
    ret_int(fd.0)
}
pub fn ret_bool(v: bool) -> u64 {
    v as u64
}
pub fn ret_obj(o: Option<ObjRef>) -> u64 {
    crate::heap::to_slot(o)
}
