//! jxvm's compiler: a method's pre-decoded code ([`meta::code`]) to machine code, on Cranelift.
//!
//! The second execution engine beside the interpreter, and built to share its frames: see
//! [`meta::code::compiled`] for the contract. Compiled code keeps the method's locals and
//! operand stack in Cranelift variables (registers, as the register allocator sees fit) and
//! writes them back to the frame's slots, in the interpreter's layout, before every call into
//! the VM and every exit; afterwards it reads them again, since a collection may have moved
//! what they point to. Whatever compiled code does not do itself it leaves to the VM through a
//! few stubs ([`Stubs`]): the generic one runs one op as the interpreter would (calls, field
//! resolution, allocation, type checks, monitors), another polls for a safepoint, another
//! remembers an old object the write barrier caught. An op that can throw (a null, an index
//! out of bounds, a division by zero) leaves compiled code at that op, and the interpreter
//! runs it again and throws with the exact state, message and handler search.
//!
//! A call whose target the compile can name (a static method of the caller's class or a
//! superclass, a constructor or private method, a method no class can override) goes straight
//! into the callee's code when it has some: compiled code pushes the callee's frame record
//! and frame as the interpreter's call path would (the layout numbers are in [`Layout`]) and
//! calls the callee's entry; a callee that leaves its code early is finished by the resume
//! stub. Other calls, and calls whose callee has no code yet, would not fit or meet a pending
//! safepoint, go through the invoke stub, which does the VM's call path without decoding the
//! op again.
//!
//! Owns translation ([`translate`]) and code memory ([`memory`]). Knows class metadata and
//! the layout numbers it is handed ([`Env`]), never the VM's threads, heaps or domains: the
//! runtime above gives it their offsets and its stubs' addresses, as Wasmtime's runtime gives
//! its compiler `VMOffsets` and libcalls.

#![deny(unsafe_code)]

pub mod inline;
#[allow(unsafe_code)] // maps pages and makes them executable
pub mod memory;
pub mod translate;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use meta::code::compiled::{Compiled, EntryFn};
use meta::code::decode::Prepared;
use meta::code::oopmap::{OopMaps, Operands};

pub use memory::MemoryError;
pub use translate::Refusal;

/// Addresses of the VM functions compiled code calls, all `extern "C"`.
#[derive(Clone, Copy, Debug)]
pub struct Stubs {
    /// `fn(thread, pc: u32, depth: u32) -> u32`: runs op `pc` as the interpreter would, on
    /// the frame's slots (flushed, `depth` operand slots); `STUB_OK` or `STUB_THREW`.
    pub op: usize,
    /// `fn(thread, pc: u32, depth: u32) -> u32`: a safepoint poll with the frame at op `pc`.
    pub poll: usize,
    /// `fn(thread, pc: u32, depth: u32, method: u64, sig: u32, kind: u32) -> u32`: the call
    /// at op `pc` of the method the site resolved to, selected by `kind`
    /// ([`meta::code::compiled::InvokeKind`]), its result left at the arguments' first slot;
    /// `STUB_OK` or `STUB_THREW`.
    pub invoke: usize,
    /// `fn(thread, exit: u64, old_sp: u64) -> u32`: finishes in the interpreter a callee that
    /// compiled code called directly and that left its code with `exit`, then pops its frame
    /// (restoring `JThread::sp` to `old_sp`) and leaves its result at its frame's slot 0;
    /// `STUB_OK` or `STUB_THREW`.
    pub resume: usize,
    /// `fn(thread, pc: u32, depth: u32, class) -> u32`: `new` of `class` (resolved, neither
    /// abstract nor an interface) at op `pc`: initializes it, allocates, and leaves the object
    /// at operand slot `depth`; `STUB_OK` or `STUB_THREW`.
    pub new: usize,
    /// `fn(thread, holder: u64)`: the write barrier's slow path (remember an old object).
    pub remember: usize,
    /// `fn(thread, assumptions: u64)`: counts a call of the code carrying `assumptions`
    /// ([`meta::code::deps::Assumptions`]) that missed its site's profile (enough of them
    /// take the code out to be compiled again).
    pub missed: usize,
    /// `fn(f32, f32) -> f32` and `fn(f64, f64) -> f64`: Java's `%` of floats (fmod).
    pub frem: usize,
    /// `fn(f: usize, args: *const u64, n: u32) -> u64`: calls pure intrinsic `f` (a
    /// [`meta::intrinsics::PureFn`]) on the `n` argument slots at `args`.
    pub pure: usize,
    pub drem: usize,
    /// `fn(class: u64, method: u64, sig: u32) -> u64`: the method an `invokeinterface` of
    /// `method` (resolved, with interned name-and-descriptor `sig`) selects for a receiver of
    /// `class`, or 0 when the VM must select it (and throw what selection throws).
    pub select: usize,
    /// `fn(class: u64, target: u64) -> u64`: 1 if objects of `class` are assignable to
    /// `target`, else 0.
    pub subtype: usize,
}

/// Layout numbers compiled code relies on, from the runtime's one definition of them.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub object_class: usize,
    /// The mark word and the header's size (the first field's offset).
    pub object_mark: usize,
    pub object_header_size: usize,
    pub array_length: usize,
    pub array_base: usize,
    pub thread_poll_word: usize,
    pub thread_nursery_start: usize,
    pub thread_nursery_size: usize,
    /// The thread's allocation buffer: its next free byte and its end.
    pub thread_tlab_top: usize,
    pub thread_tlab_end: usize,
    /// The address of the thread's domain's initialized flags: a byte per class id, non-zero
    /// once the class is initialized in that domain.
    pub thread_init_flags: usize,
    /// The address of the thread's domain's class mirrors: a word per class id, the
    /// `java.lang.Class` object whose fields from `statics_base` on are the class's statics
    /// (0 before it is made; made before the class is initialized).
    pub thread_mirrors: usize,
    pub statics_base: usize,
    /// What a direct call between compiled methods reads and writes in the thread: the
    /// stack's base and the limit of its frames (addresses), the first free slot, the depth
    /// limit, and the frame records' base, count and capacity.
    pub thread_stack_base: usize,
    pub thread_stack_limit: usize,
    pub thread_sp: usize,
    pub thread_max_depth: usize,
    pub thread_frames_base: usize,
    pub thread_frames_len: usize,
    pub thread_frames_cap: usize,
    /// A frame record's size and its method, pc (u32) and bp (u32) fields.
    pub frame_size: usize,
    pub frame_method: usize,
    pub frame_pc: usize,
    pub frame_bp: usize,
    /// The class of `boolean[]`: a `bastore` into one stores only the low bit.
    pub boolean_array_class: usize,
    /// A class's `finalizable` flag (a byte, non-zero: its objects need registering).
    pub class_finalizable: usize,
    /// What a call whose target is selected at run time reads: a class's vtable address
    /// (null before linking), a method's code published for direct calls (null: call through
    /// the VM), and in that code its entry word, frame size in slots (u32) and local count
    /// (u16).
    pub class_vtable: usize,
    pub method_direct: usize,
    /// What an inline `Unsafe` access checks (else the native runs, with its checks): the
    /// thread's domain is trusted (a word, 0), the object's class is not an API class (its
    /// `api` byte is 0) and is not `java.lang.Class` (this address: statics live in
    /// mirrors).
    pub thread_untrusted: usize,
    pub class_api: usize,
    pub mirror_class: usize,
    pub prepared_entry: usize,
    pub prepared_frame_slots: usize,
    pub prepared_max_locals: usize,
}

/// What the compiler is given once.
#[derive(Clone, Copy, Debug)]
pub struct Env {
    pub stubs: Stubs,
    pub layout: Layout,
}

/// One method to compile.
pub struct Unit<'a> {
    /// The method's class (its resolution cache tells what calls are known to reach).
    pub class: &'a meta::class::Class,
    pub prep: &'a Prepared,
    /// Whether the method is static (else local 0 holds its receiver on entry).
    pub is_static: bool,
    /// The method's bytecode (`prep.bcis` index it): what quickened ops no longer say, such
    /// as whether a two-slot field is a long or a double.
    pub bytecode: &'a [u8],
    pub maps: &'a OopMaps,
    pub operands: &'a dyn Operands,
    /// What this compile may assume of the class hierarchy, recorded as it does
    /// ([`meta::code::deps`]); the code carries them if it relies on any.
    pub assumptions: &'static meta::code::deps::Assumptions,
}

/// Why a method was not compiled.
#[derive(Debug)]
pub enum Failure {
    /// The method uses something compiled code does not support; it stays interpreted.
    Refused(Refusal),
    /// Cranelift rejected the function (a bug of the translation).
    Codegen(String),
    /// The code cache is full or could not be mapped.
    Memory(MemoryError),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Refused(r) => write!(f, "not compilable: {r}"),
            Failure::Codegen(e) => write!(f, "code generation failed: {e}"),
            Failure::Memory(MemoryError::Full) => write!(f, "code cache full"),
            Failure::Memory(MemoryError::Map(e)) => write!(f, "code memory: errno {e}"),
        }
    }
}

/// A compiled method and what it cost.
pub struct Output {
    pub code: Compiled,
    pub time: Duration,
    /// The machine code as text, when [`Jit::compile`] was asked for it.
    pub listing: Option<String>,
    /// What was decided at each call the compiler could name, in translation order.
    pub inlining: Vec<Inlined>,
}

/// One call compiled code could name, and whether its callee was inlined (`-XX:+PrintInlining`).
pub struct Inlined {
    /// The call's bytecode index in its method, and how deep that method is inlined itself
    /// (0: the compiled method).
    pub bci: u32,
    pub level: u32,
    pub method: &'static meta::class::Method,
    /// `Ok` if inlined, else why not.
    pub outcome: Result<(), &'static str>,
}

/// The compiler: the target, the runtime's numbers, and the code cache.
pub struct Jit {
    isa: OwnedTargetIsa,
    env: Env,
    memory: Mutex<memory::CodeMemory>,
}

impl Jit {
    /// A compiler for this machine with a code cache of `code_cache` bytes.
    pub fn new(env: Env, code_cache: usize) -> Result<Jit, String> {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v)
                .map_err(|e| format!("cranelift setting {k}={v}: {e}"))
        };
        set(&mut flags, "opt_level", "speed")?;
        set(
            &mut flags,
            "enable_verifier",
            if cfg!(debug_assertions) {
                "true"
            } else {
                "false"
            },
        )?;
        let isa = cranelift_native::builder()
            .map_err(|e| format!("no code generator for this machine: {e}"))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| format!("code generator: {e}"))?;
        Ok(Jit {
            isa,
            env,
            memory: Mutex::new(memory::CodeMemory::new(code_cache)),
        })
    }

    /// Bytes of code memory in use.
    pub fn code_cache_used(&self) -> usize {
        self.memory.lock().unwrap_or_else(|e| e.into_inner()).used()
    }

    /// Compiles one method; with `listing`, also gives its machine code as text.
    pub fn compile(&self, unit: &Unit, listing: bool) -> Result<Output, Failure> {
        let start = Instant::now();
        let translation = translate::function(&self.env, self.isa.frontend_config(), unit)
            .map_err(Failure::Refused)?;
        let mut ctx = cranelift_codegen::Context::for_function(translation.function);
        ctx.set_disasm(listing);
        let compiled = ctx
            .compile(&*self.isa, &mut Default::default())
            .map_err(|e| Failure::Codegen(format!("{:?}", e.inner)))?;
        if !compiled.buffer.relocs().is_empty() {
            return Err(Failure::Codegen("code needs relocations".into()));
        }
        let bytes = compiled.code_buffer();
        let addr = self
            .memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .place(bytes)
            .map_err(Failure::Memory)?;
        let entry = entry_fn(addr);
        let listing = compiled.vcode.clone();
        Ok(Output {
            code: Compiled {
                entry,
                entries: translation.entries.into(),
                code_size: bytes.len(),
                assumptions: translation.assumes.then_some(unit.assumptions),
            },
            time: start.elapsed(),
            listing,
            inlining: translation.inlining,
        })
    }
}

/// The entry of code placed at `addr`.
#[allow(unsafe_code)]
fn entry_fn(addr: std::ptr::NonNull<u8>) -> EntryFn {
    // SAFETY: `addr` holds a function Cranelift compiled with `EntryFn`'s signature in the
    // target's default (C) calling convention, in executable pages that are never unmapped.
    unsafe { std::mem::transmute::<*mut u8, EntryFn>(addr.as_ptr()) }
}
