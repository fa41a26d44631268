//! Tiers: when a method leaves the interpreter for compiled code, and the runtime side of
//! compiled code (its entry, its exits and the stubs it calls).
//!
//! Owns the compilation policy (`-Xint`, `-Xcomp`, `-XX:CompileThreshold`, the code cache's
//! size, `-XX:+PrintCompilation`) and the glue to the `jit` crate: the stubs' addresses and
//! the layout numbers it is handed, the call into compiled code, and the interpreter's
//! resumption at the op where compiled code left (see `meta::code::compiled` for the frame
//! contract both engines keep). A method is counted on every call and every taken backward
//! branch; past the threshold it is compiled by the thread that counted it, and the next call
//! or loop iteration enters the code (a loop header is an entry: on-stack replacement).
//! Must not know how ops are translated (the `jit` crate's) nor run ops itself (`exec`'s).

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use super::exec::{Flow, Start, invoke, run, select_virtual};
use super::frame::{Code, Refused, Slots};
use crate::class::{BasicType, Class, Method};
use crate::code::compiled::{Compiled, Exit, InvokeKind, STUB_OK, STUB_THREW};
use crate::code::decode::Prepared;
use crate::code::deps::{self, Assumptions};
use crate::code::oopmap::{self, MethodOperands};
use crate::heap::from_slot;
use crate::thread::{JResult, JThread};

/// How methods are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `-Xint`: the interpreter only.
    Interpreted,
    /// `-Xmixed` (the default): interpreted, compiled once hot.
    Mixed,
    /// `-Xcomp`: compiled before the first run.
    Compiled,
}

impl Mode {
    /// What `java -version` and `java.vm.info` say of it.
    pub fn info(self) -> &'static str {
        match self {
            Mode::Interpreted => "interpreted mode",
            Mode::Mixed => "mixed mode",
            Mode::Compiled => "compiled mode",
        }
    }
}

/// The compilation options.
#[derive(Clone, Copy, Debug)]
pub struct JitOptions {
    pub mode: Mode,
    /// `-XX:CompileThreshold`: calls plus loop iterations before a method is compiled.
    pub threshold: u32,
    /// `-XX:+PrintCompilation`.
    pub print: bool,
    /// `-XX:+PrintAssembly` (diagnostic): each compiled method's machine code on stdout.
    pub print_assembly: bool,
    /// `-XX:+PrintInlining` (diagnostic): after each compiled method, the calls it could
    /// name, inlined or not and why.
    pub print_inlining: bool,
    /// `-XX:+DumpPerfMapAtExit` (diagnostic): `/tmp/perf-PID.map` names compiled code for
    /// `perf` (written as methods are compiled, so it is there even if the VM is killed).
    pub perf_map: bool,
    /// `-XX:ReservedCodeCacheSize`.
    pub code_cache: usize,
}

impl Default for JitOptions {
    fn default() -> JitOptions {
        JitOptions {
            mode: Mode::Mixed,
            threshold: 10_000,
            print: false,
            print_assembly: false,
            print_inlining: false,
            perf_map: false,
            code_cache: 240 << 20,
        }
    }
}

impl JitOptions {
    /// The count at which a method is compiled.
    fn effective_threshold(&self) -> u32 {
        match self.mode {
            Mode::Interpreted => u32::MAX,
            Mode::Mixed => self.threshold.max(1),
            Mode::Compiled => 1,
        }
    }
}

/// The VM's compiler, made on first use (it needs the `boolean[]` class).
pub struct Compiler {
    /// The count at which a method is compiled (`u32::MAX`: never).
    threshold: u32,
    jit: OnceLock<Option<jit::Jit>>,
    ids: AtomicU32,
    cache_full_said: AtomicBool,
}

impl Compiler {
    pub fn new(options: &JitOptions) -> Compiler {
        Compiler {
            threshold: options.effective_threshold(),
            jit: OnceLock::new(),
            ids: AtomicU32::new(1),
            cache_full_said: AtomicBool::new(false),
        }
    }
}

/// Runs `m` in its frame at `bp`: compiled code where the method has it, the interpreter
/// elsewhere, each taking over where the other left. Inlined into the interpreter's call
/// path, which it adds a frame to otherwise (Hello World: 2% more instructions).
#[inline(always)]
pub(super) fn run_method(
    t: &mut JThread,
    m: &'static Method,
    prep: &'static Prepared,
    code: Code<'static>,
    slots: Slots,
    bp: usize,
    fi: usize,
) -> JResult<u64> {
    let start = Start {
        pc: 0,
        sp: bp + prep.max_locals as usize,
        exception: false,
    };
    if prep.tier.code().is_none() {
        count(t, m, prep, 1);
    }
    run_from(t, m, prep, code, slots, bp, fi, start, true)
}

/// Runs `m` in its frame at `bp` from `start`, first in compiled code if `try_compiled`.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the frame's parts, as `exec::run` takes them
fn run_from(
    t: &mut JThread,
    m: &'static Method,
    prep: &'static Prepared,
    code: Code<'static>,
    slots: Slots,
    bp: usize,
    fi: usize,
    mut start: Start,
    mut try_compiled: bool,
) -> JResult<u64> {
    let stack_base = bp + prep.max_locals as usize;
    loop {
        if try_compiled
            && let Some(c) = prep.tier.code()
            && c.enters_at(start.pc as u32)
        {
            match enter(t, c, bp, start.pc) {
                Exit::Returned => return Ok(t.stack[bp]),
                Exit::At {
                    pc,
                    depth,
                    exception,
                } => {
                    start = Start {
                        pc: pc as usize,
                        sp: stack_base + depth as usize,
                        exception,
                    };
                }
            }
        }
        match run::<false>(t, m, prep, code, slots, bp, fi, start)? {
            Flow::Return(v) => return Ok(v),
            Flow::Enter(pc) => {
                start = Start {
                    pc,
                    sp: stack_base,
                    exception: false,
                };
                try_compiled = true;
            }
            Flow::Stepped => unreachable!("a whole run does not step"),
        }
    }
}

/// At a taken backward branch to `target`: the loop is counted, and if the method has
/// compiled code that may be entered there, the interpreter hands over.
#[inline]
pub(super) fn at_backedge(
    t: &mut JThread,
    m: &'static Method,
    prep: &'static Prepared,
    target: usize,
) -> Option<Flow> {
    let code = match prep.tier.code() {
        Some(c) => c,
        None => {
            count(t, m, prep, 1);
            prep.tier.code()?
        }
    };
    code.enters_at(target as u32).then_some(Flow::Enter(target))
}

/// Counts `n` events of `m`; compiles it when they reach the threshold.
#[inline]
fn count(t: &mut JThread, m: &'static Method, prep: &'static Prepared, n: u32) {
    let threshold = t.vm.compiler.threshold;
    if threshold != u32::MAX && prep.tier.count(n, threshold) {
        compile(t, m, prep);
    }
}

/// Compiles `m` on this thread and installs the code, or marks it interpreted for good.
#[cold]
fn compile(t: &mut JThread, m: &'static Method, prep: &'static Prepared) {
    if !prep.tier.claim() {
        return;
    }
    let Some(jit) = compiler_of(t) else {
        prep.tier.refuse();
        return;
    };
    let compiler = &t.vm.compiler;
    let id = compiler.ids.fetch_add(1, Ordering::Relaxed);
    let maps = match oopmap::maps_of(m, prep) {
        Ok(maps) => maps,
        Err(e) => {
            refuse(t, m, prep, id, &e);
            return;
        }
    };
    resolve_loaded_members(t, m, prep);
    let operands = MethodOperands {
        class: m.class,
        prep,
    };
    let unit = jit::Unit {
        class: m.class,
        prep,
        is_static: m.is_static(),
        bytecode: m.info.code.as_ref().map_or(&[], |c| &c.code),
        maps,
        operands: &operands,
        assumptions: Assumptions::new(m, &prep.tier),
    };
    match jit.compile(&unit, t.vm.opts.jit.print_assembly) {
        Ok(out) => {
            if let Some(listing) = &out.listing {
                print_listing(m, id, &out.code, listing);
            }
            if t.vm.opts.jit.perf_map {
                add_to_perf_map(m, &out.code);
            }
            if t.vm.opts.jit.print {
                print_line(
                    t,
                    id,
                    m,
                    &format!(
                        "{} bytes of code, {} us",
                        out.code.code_size,
                        out.time.as_micros()
                    ),
                );
            }
            if t.vm.opts.jit.print_inlining {
                print_inlining(&out.inlining);
            }
            if deps::install(&prep.tier, out.code) {
                m.link_direct();
            } else if t.vm.opts.jit.print {
                print_line(t, id, m, "COMPILE SKIPPED: a class broke its assumptions");
            }
        }
        Err(jit::Failure::Memory(jit::MemoryError::Full)) => {
            prep.tier.refuse();
            if !compiler.cache_full_said.swap(true, Ordering::Relaxed) {
                eprintln!(
                    "OpenJDK 64-Bit Server VM warning: CodeCache is full. Compiler has been disabled.\n\
                     OpenJDK 64-Bit Server VM warning: Try increasing the code cache size using -XX:ReservedCodeCacheSize="
                );
            }
        }
        Err(e) => refuse(t, m, prep, id, &e.to_string()),
    }
}

fn refuse(t: &JThread, m: &'static Method, prep: &Prepared, id: u32, why: &str) {
    prep.tier.refuse();
    if t.vm.opts.jit.print {
        print_line(t, id, m, &format!("COMPILE SKIPPED: {why}"));
    }
}

/// A `-XX:+PrintCompilation` line: milliseconds since start, compile id, the method, its
/// bytecode size, then `what`.
fn print_line(t: &JThread, id: u32, m: &'static Method, what: &str) {
    let bytes = m.info.code.as_ref().map_or(0, |c| c.code.len());
    let ms = t.vm.started().elapsed().as_millis();
    let line = format!(
        "{ms:>8} {id:>5}       {}::{} ({bytes} bytes)   {what}\n",
        m.class.java_name(),
        m.name
    );
    let _ = std::io::stdout().lock().write_all(line.as_bytes());
}

/// When the VM printing compilations started, for [`print_not_entrant`].
static PRINT_SINCE: OnceLock<std::time::Instant> = OnceLock::new();

/// The `-XX:+PrintCompilation` line for code taken out because a class broke what it
/// assumed (HotSpot's "made not entrant").
fn print_not_entrant(m: &'static Method) {
    let bytes = m.info.code.as_ref().map_or(0, |c| c.code.len());
    let ms = PRINT_SINCE.get().map_or(0, |s| s.elapsed().as_millis());
    let line = format!(
        "{ms:>8}             {}::{} ({bytes} bytes)   made not entrant\n",
        m.class.java_name(),
        m.name
    );
    let _ = std::io::stdout().lock().write_all(line.as_bytes());
}

/// `-XX:+PrintInlining` lines, in HotSpot's shape: `@ bci class::method (N bytes)` and
/// `inline` or why not, indented by how deep the call is inlined.
fn print_inlining(calls: &[jit::Inlined]) {
    let mut text = String::new();
    for c in calls {
        let m = c.method;
        let bytes = m.info.code.as_ref().map_or(0, |c| c.code.len());
        let outcome = c.outcome.err().unwrap_or("inline");
        let indent = "  ".repeat(c.level as usize);
        text += &format!(
            "{:30}{indent}@ {:<3} {}::{} ({bytes} bytes)   {outcome}\n",
            "",
            c.bci,
            m.class.java_name(),
            m.name
        );
    }
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// A `-XX:+PrintAssembly` listing: a header naming the method, then Cranelift's text of the
/// machine code (its offsets are from the code's start).
fn print_listing(m: &'static Method, id: u32, code: &Compiled, listing: &str) {
    let text = format!(
        "[compiled {id}: {}::{}{} at {:p}, {} bytes]\n{listing}\n",
        m.class.java_name(),
        m.name,
        m.descriptor,
        code.entry as *const (),
        code.code_size
    );
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Appends `m`'s code to `/tmp/perf-PID.map`, the file `perf report` reads names of JIT code
/// from (one `START SIZE NAME` line, hexadecimal).
fn add_to_perf_map(m: &'static Method, code: &Compiled) {
    static MAP: std::sync::Mutex<Option<std::fs::File>> = std::sync::Mutex::new(None);
    let mut map = MAP.lock().unwrap_or_else(|e| e.into_inner());
    if map.is_none() {
        let path = format!("/tmp/perf-{}.map", std::process::id());
        *map = std::fs::File::create(path).ok();
    }
    if let Some(f) = map.as_mut() {
        let _ = writeln!(
            f,
            "{:x} {:x} {}::{}{}",
            code.entry as usize,
            code.code_size,
            m.class.java_name(),
            m.name,
            m.descriptor
        );
    }
}

/// Resolves the field and method references of `m` whose classes are loaded (without side
/// effects, as `exec::quicken` does), so that compiled code accesses and calls them inline:
/// a method compiled before its later code first ran (a `main` whose first loop is hot) would
/// otherwise reach them through the op stub for as long as its code lives.
fn resolve_loaded_members(t: &JThread, m: &'static Method, prep: &Prepared) {
    use crate::class::resolve::{resolve_field_if_loaded, resolve_method_if_loaded};
    use crate::code::op::Op;
    let table = &t.vm.classes;
    for op in prep.ops.iter() {
        match *op {
            Op::GetField(idx) | Op::PutField(idx) => {
                let _ = resolve_field_if_loaded(table, m.class, idx);
            }
            Op::InvokeVirtual(idx)
            | Op::InvokeSpecial(idx)
            | Op::InvokeStatic(idx)
            | Op::InvokeInterface(idx) => {
                let _ = resolve_method_if_loaded(table, m.class, idx);
            }
            _ => {}
        }
    }
}

/// The compiler, made on first use; None if this machine has no code generator.
fn compiler_of(t: &mut JThread) -> Option<&'static jit::Jit> {
    let vm = t.vm;
    if let Some(j) = vm.compiler.jit.get() {
        return j.as_ref();
    }
    let boolean_array = t
        .array_class_of(vm.classes.primitive(BasicType::Boolean))
        .ok()?;
    let o = crate::offsets::OFFSETS;
    let env = jit::Env {
        stubs: jit::Stubs {
            op: stub_op as *const () as usize,
            poll: stub_poll as *const () as usize,
            invoke: stub_invoke as *const () as usize,
            resume: stub_resume as *const () as usize,
            new: stub_new as *const () as usize,
            remember: stub_remember as *const () as usize,
            missed: stub_missed as *const () as usize,
            frem: stub_frem as *const () as usize,
            pure: stub_pure as *const () as usize,
            drem: stub_drem as *const () as usize,
            select: stub_select_interface as *const () as usize,
            subtype: stub_is_subtype as *const () as usize,
        },
        layout: jit::Layout {
            object_class: o.object_class,
            object_mark: o.object_mark,
            object_header_size: o.object_header_size,
            thread_tlab_top: o.thread_tlab_top,
            thread_tlab_end: o.thread_tlab_end,
            thread_init_flags: o.thread_init_flags,
            thread_mirrors: o.thread_mirrors,
            statics_base: vm.wk().statics_base as usize,
            array_length: o.array_length,
            array_base: o.array_base,
            thread_poll_word: o.thread_poll_word,
            thread_nursery_start: o.thread_nursery_start,
            thread_nursery_size: o.thread_nursery_size,
            thread_stack_base: o.thread_stack_base,
            thread_stack_limit: o.thread_stack_limit,
            thread_sp: o.thread_sp,
            thread_max_depth: o.thread_max_depth,
            thread_frames_base: o.thread_frames_base,
            thread_frames_len: o.thread_frames_len,
            thread_frames_cap: o.thread_frames_cap,
            frame_size: o.frame_size,
            frame_method: o.frame_method,
            frame_pc: o.frame_pc,
            frame_bp: o.frame_bp,
            boolean_array_class: boolean_array as *const crate::class::Class as usize,
            class_finalizable: o.class_finalizable,
            thread_untrusted: o.thread_untrusted,
            class_api: o.class_api,
            mirror_class: vm.wk().class as *const crate::class::Class as usize,
            class_vtable: o.class_vtable,
            method_direct: o.method_direct,
            prepared_entry: o.prepared_entry,
            prepared_frame_slots: o.prepared_frame_slots,
            prepared_max_locals: o.prepared_max_locals,
        },
    };
    if vm.opts.jit.print {
        let _ = PRINT_SINCE.set(vm.started());
        deps::on_deoptimize(print_not_entrant);
    }
    vm.compiler
        .jit
        .get_or_init(|| match jit::Jit::new(env, vm.opts.jit.code_cache) {
            Ok(j) => Some(j),
            Err(e) => {
                eprintln!("OpenJDK 64-Bit Server VM warning: no compiler: {e}");
                None
            }
        })
        .as_ref()
}

/// Calls compiled code `c` at op `pc` of the frame at `bp`.
#[allow(unsafe_code)]
fn enter(t: &mut JThread, c: &Compiled, bp: usize, pc: usize) -> Exit {
    debug_assert!(c.enters_at(pc as u32));
    let frame = t.stack[bp..].as_mut_ptr();
    let thread = t as *mut JThread as *mut u8;
    // SAFETY: `c` was compiled for the method whose frame is at `bp` (the caller runs that
    // method), entered at one of its entry points; the frame's slots lie inside the thread's
    // stack (`frame::enter` checked the proven frame size) and the stack never moves. The
    // code reaches the thread only through the stubs below, while `t` is not used.
    Exit::decode(unsafe { (c.entry)(frame, thread, pc as u32) })
}

/// The thread compiled code passes to a stub.
///
/// # Safety
/// `thread` must be the pointer [`enter`] passed to compiled code, which is running on this
/// thread and calls the stub from its frame.
#[allow(unsafe_code)]
unsafe fn thread_of<'a>(thread: *mut u8) -> &'a mut JThread {
    // SAFETY: per the contract, `thread` is the live `JThread` of the calling thread, and
    // its `&mut` caller is suspended in `enter` for the duration of the call.
    unsafe { &mut *(thread as *mut JThread) }
}

/// The compiled method's frame, the top one of `t`.
fn compiled_frame(t: &JThread) -> (&'static Method, &'static Prepared, usize, usize) {
    let fi = t.frames.len() - 1;
    let f = t.frames[fi];
    let prep = match f.method.prepared.get() {
        Some(Ok(p)) => p,
        _ => unreachable!("compiled code of a method without prepared code"),
    };
    (f.method, prep, f.bp as usize, fi)
}

/// Runs op `pc` of the compiled method's frame as the interpreter would.
#[allow(unsafe_code)]
extern "C" fn stub_op(thread: *mut u8, pc: u32, depth: u32) -> u32 {
    // SAFETY: only compiled code calls this stub, with the thread it was entered with.
    let t = unsafe { thread_of(thread) };
    let (m, prep, bp, fi) = compiled_frame(t);
    let limit = t.stack_limit();
    let (code, slots) = match super::frame::enter(prep, &mut t.stack, bp, limit) {
        Ok(entered) => entered,
        Err(Refused::Overflow) => {
            let _ = t.stack_overflow();
            return STUB_THREW;
        }
        Err(Refused::Unproven) => unreachable!("compiled code of an unproven method"),
    };
    let start = Start {
        pc: pc as usize,
        sp: bp + prep.max_locals as usize + depth as usize,
        exception: false,
    };
    match run::<true>(t, m, prep, code, slots, bp, fi, start) {
        Ok(_) => STUB_OK,
        Err(_) => STUB_THREW,
    }
}

/// The call at op `pc` of the compiled method's frame to `method`, which the site resolved
/// to, selected as `kind` says: what the interpreter's invoke ops do after resolution. The
/// arguments are the frame's top slots below `depth`; the result replaces them.
#[allow(unsafe_code)]
extern "C" fn stub_invoke(
    thread: *mut u8,
    pc: u32,
    depth: u32,
    method: *const Method,
    sig: u32,
    kind: u32,
) -> u32 {
    // SAFETY: only compiled code calls this stub, with the thread it was entered with.
    let t = unsafe { thread_of(thread) };
    // SAFETY: compiled code passes a method its class's resolution cache holds: metadata
    // that lives as long as the calling method's class.
    let rm: &'static Method = unsafe { &*method };
    let (caller, prep, bp, fi) = compiled_frame(t);
    t.frames[fi].pc = pc;
    let base = bp + prep.max_locals as usize + depth as usize - rm.arg_slots as usize;

    let r = invoke_selected(t, caller, rm, sig, kind, base);
    leave_result(t, r, base, rm.ret)
}

/// The method an `invokeinterface` of `method` selects for a receiver of `class` when no
/// check or error is involved (see `exec::select_interface`), else null: compiled code then
/// calls through the op stub, which selects again and throws. Touches no thread state.
#[allow(unsafe_code)]
extern "C" fn stub_select_interface(class: u64, method: u64, sig: u32) -> u64 {
    // SAFETY: compiled code passes its receiver's class and the method its site resolved
    // to: metadata that outlives the objects and code that name it.
    let (rc, rm): (&'static Class, &'static Method) =
        unsafe { (&*(class as *const Class), &*(method as *const Method)) };
    super::exec::select_interface_quietly(rc, rm, sig).map_or(0, |m| m as *const Method as u64)
}

/// A call stub's answer: `STUB_OK` with a call's result `r` (of type `ret`) at slot `at` (a
/// wide one's second slot 0, as the interpreter pushes it), or `STUB_THREW`.
fn leave_result(t: &mut JThread, r: JResult<u64>, at: usize, ret: BasicType) -> u32 {
    match r {
        Ok(v) => {
            t.stack[at] = v;
            if ret.slots() == 2 {
                t.stack[at + 1] = 0;
            }
            STUB_OK
        }
        Err(_) => STUB_THREW,
    }
}

/// Counts a call of compiled code that missed its site's profile; enough of them take the
/// code out, so that the method is profiled again and compiled for what it sees now. The
/// misses are the code's own (its `Assumptions`'), so a frame still running code taken out
/// does not count against the code compiled after it. Touches no slot.
#[allow(unsafe_code)]
extern "C" fn stub_missed(thread: *mut u8, assumptions: u64) {
    // SAFETY: only compiled code calls this stub, with the thread it was entered with.
    let t = unsafe { thread_of(thread) };
    // SAFETY: compiled code passes the `Assumptions` of its compile, which are leaked.
    let a: &'static Assumptions = unsafe { &*(assumptions as *const Assumptions) };
    if a.missed() && deps::take_out_stale(a) && t.vm.opts.jit.print {
        print_not_entrant(a.method);
    }
}

/// The invoke ops' selection and call, for [`stub_invoke`].
fn invoke_selected(
    t: &mut JThread,
    caller: &'static Method,
    rm: &'static Method,
    sig: u32,
    kind: u32,
    base: usize,
) -> JResult<u64> {
    const STATIC: u32 = InvokeKind::Static as u32;
    const SPECIAL: u32 = InvokeKind::Special as u32;
    const EXACT: u32 = InvokeKind::Exact as u32;
    if kind == STATIC {
        t.ensure_initialized(rm.class)?;
        return invoke(t, rm, base);
    }
    if kind == EXACT {
        // The site checked the receiver's class, so not null either.
        return invoke(t, rm, base);
    }
    let Some(recv) = from_slot(t.stack[base]) else {
        return Err(t.throw_new("java/lang/NullPointerException", None));
    };
    let target = if kind == SPECIAL {
        crate::class::resolve::select_special(caller.class, rm)
    } else {
        select_virtual(recv.class(), rm, sig)
    };
    invoke(t, target, base)
}

/// Finishes, in the interpreter, the method a compiled caller called directly and whose
/// code left with `exit`; pops its frame, restores `JThread::sp` to `old_sp`, and leaves the
/// result at the frame's slot 0 (where the caller's arguments began).
#[allow(unsafe_code)]
extern "C" fn stub_resume(thread: *mut u8, exit: u64, old_sp: u64) -> u32 {
    // SAFETY: only compiled code calls this stub, with the thread it was entered with.
    let t = unsafe { thread_of(thread) };
    let (m, prep, bp, fi) = compiled_frame(t);
    let Exit::At {
        pc,
        depth,
        exception,
    } = Exit::decode(exit)
    else {
        unreachable!("a returned callee needs no resumption")
    };
    let start = Start {
        pc: pc as usize,
        sp: bp + prep.max_locals as usize + depth as usize,
        exception,
    };
    let limit = t.stack_limit();
    let r = match super::frame::enter(prep, &mut t.stack, bp, limit) {
        Ok((code, slots)) => run_from(t, m, prep, code, slots, bp, fi, start, false),
        Err(_) => unreachable!("a frame compiled code pushed is proven and fits"),
    };
    t.drop_lock_records_from(fi);
    t.frames.pop();
    t.sp = old_sp as usize;
    leave_result(t, r, bp, m.ret)
}

/// `new` of `class` at op `pc` of the compiled method's frame, with `depth` operand slots:
/// what the interpreter's `new` does after resolution.
#[allow(unsafe_code)]
extern "C" fn stub_new(thread: *mut u8, pc: u32, depth: u32, class: *const Class) -> u32 {
    // SAFETY: only compiled code calls this stub, with the thread it was entered with.
    let t = unsafe { thread_of(thread) };
    // SAFETY: compiled code passes a class its method's resolution cache holds: metadata
    // that lives as long as the calling method's class.
    let c: &'static Class = unsafe { &*class };
    let (_, prep, bp, fi) = compiled_frame(t);
    t.frames[fi].pc = pc;
    let size = c.instance_size as usize;
    let made = t.ensure_initialized(c).and_then(|()| {
        crate::gc::alloc_at_safepoint(t, size, |h, tlab| h.alloc_local(tlab, c, size))
    });
    match made {
        Ok(o) => {
            t.stack[bp + prep.max_locals as usize + depth as usize] = o.slot();
            STUB_OK
        }
        Err(_) => STUB_THREW,
    }
}

/// A safepoint poll at op `pc` of the compiled method's frame.
#[allow(unsafe_code)]
extern "C" fn stub_poll(thread: *mut u8, pc: u32, _depth: u32) -> u32 {
    // SAFETY: only compiled code calls this stub, with the thread it was entered with.
    let t = unsafe { thread_of(thread) };
    let fi = t.frames.len() - 1;
    t.frames[fi].pc = pc;
    match t.poll_safepoint() {
        Ok(()) => STUB_OK,
        Err(_) => STUB_THREW,
    }
}

/// The write barrier's slow path: `holder` (old) now refers to a young object.
#[allow(unsafe_code)]
extern "C" fn stub_remember(thread: *mut u8, holder: u64) {
    // SAFETY: only compiled code calls this stub, with the thread it was entered with.
    let t = unsafe { thread_of(thread) };
    if let Some(h) = from_slot(holder) {
        t.domain.heap.remember(h);
    }
}

/// A pure intrinsic `f` (a `PureFn`, as an address) on the `n` argument slots at `args`.
#[allow(unsafe_code)]
extern "C" fn stub_pure(f: usize, args: *const u64, n: u32) -> u64 {
    // SAFETY: compiled code passes the address of a `PureFn` it read from a method's
    // `intrinsic` when it was compiled (functions of this binary, never freed).
    let f = unsafe { std::mem::transmute::<usize, meta::intrinsics::PureFn>(f) };
    // SAFETY: `args` is the calling frame's first argument slot, followed by the other
    // `n - 1`, which compiled code has just written.
    let slots = unsafe { std::slice::from_raw_parts(args, n as usize) };
    f(slots)
}

extern "C" fn stub_frem(a: f32, b: f32) -> f32 {
    a % b
}

extern "C" fn stub_drem(a: f64, b: f64) -> f64 {
    a % b
}

/// Whether objects of `class` are assignable to `target` (1) or not (0): `checkcast` and
/// `instanceof` when the class is not the target itself. Touches no thread state.
#[allow(unsafe_code)]
extern "C" fn stub_is_subtype(class: u64, target: u64) -> u64 {
    // SAFETY: compiled code passes an object's class and a class its site resolved:
    // metadata that outlives the objects and code that name it.
    let (k, c): (&'static Class, &'static Class) =
        unsafe { (&*(class as *const Class), &*(target as *const Class)) };
    k.is_subtype_of(c) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_set_the_threshold() {
        let mut o = JitOptions::default();
        assert_eq!(o.effective_threshold(), 10_000);
        o.mode = Mode::Interpreted;
        assert_eq!(o.effective_threshold(), u32::MAX);
        o.mode = Mode::Compiled;
        assert_eq!(o.effective_threshold(), 1);
        o.mode = Mode::Mixed;
        o.threshold = 0;
        assert_eq!(o.effective_threshold(), 1);
    }

    #[test]
    fn remainders_are_javas() {
        assert_eq!(stub_frem(5.5, 2.0), 1.5);
        assert!(stub_drem(1.0, 0.0).is_nan());
        assert_eq!(stub_drem(-7.0, 2.0), -1.0);
    }
}
