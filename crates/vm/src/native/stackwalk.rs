//! Natives of java.lang.StackWalker's engine (`StackStreamFactory`): the VM side of a stack
//! walk, and `StackTraceElement.initStackTraceElement` for the frames it hands out.
//!
//! A walk is anchored at its `callStackWalk` native frame: the VM fills the first batch of
//! frames below it, then calls the walker's `doStackWalk`, whose stream asks for more batches
//! with `fetchStackFrames`. The frames below the anchor cannot change while the callback runs
//! above it, so a walk's cursor is an index into the thread's frame records; it is kept per
//! OS thread (one Java thread each) for as long as `callStackWalk` is on the stack.

use std::cell::RefCell;

use super::{Registry, jint, jlong, nonnull, ret_int};
use crate::class::Method;
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread};
use base::layout::ARRAY_BASE;

// Mode bits, as StackStreamFactory defines them.
const FILL_CLASS_REFS_ONLY: i64 = 0x2;
const GET_CALLER_CLASS: i64 = 0x4;
const SHOW_HIDDEN_FRAMES: i64 = 0x20;
const FILL_LIVE_STACK_FRAMES: i64 = 0x100;

/// An open walk: its anchor and how many frame records remain below its cursor.
struct Walk {
    anchor: i64,
    remaining: usize,
}

thread_local! {
    static WALKS: RefCell<Vec<Walk>> = const { RefCell::new(Vec::new()) };
    static NEXT_ANCHOR: std::cell::Cell<i64> = const { std::cell::Cell::new(1) };
}

pub fn register(r: &mut Registry) {
    let ssf = "java/lang/StackStreamFactory";
    r.add(ssf, "checkStackWalkModes", "()Z", |_, _| Ok(1));
    let w = "java/lang/StackStreamFactory$AbstractStackWalker";
    r.add(
        w,
        "callStackWalk",
        "(JIII[Ljava/lang/Object;)Ljava/lang/Object;",
        call_stack_walk,
    );
    r.add(
        w,
        "fetchStackFrames",
        "(JJII[Ljava/lang/Object;)I",
        fetch_stack_frames,
    );
    r.add(
        "java/lang/StackTraceElement",
        "initStackTraceElement",
        "(Ljava/lang/StackTraceElement;Ljava/lang/StackFrameInfo;)V",
        init_stack_trace_element,
    );
}

/// Whether the walk machinery itself declares `m` (frames a walk starts below).
fn is_walker_frame(m: &Method) -> bool {
    let c = m.class;
    matches!(
        &*c.name,
        "java/lang/StackStreamFactory$AbstractStackWalker" | "java/lang/StackWalker"
    ) || c
        .super_class
        .is_some_and(|s| &*s.name == "java/lang/StackStreamFactory$AbstractStackWalker")
}

/// callStackWalk(long mode, int skipFrames, int batchSize, int startIndex, Object[] frames)
fn call_stack_walk(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let mode = jlong(a[1]);
    let (skip, batch, start) = (jint(a[3]), jint(a[4]), jint(a[5]));
    if mode & FILL_LIVE_STACK_FRAMES != 0 {
        let msg = "jxvm: stack walks with locals and operands are not supported";
        return Err(t.throw_new("java/lang/UnsupportedOperationException", Some(msg)));
    }
    // Below this native frame: the walker's own frames, then `skip` more frames.
    let mut remaining = t.frames.len() - 1;
    while remaining > 0 && is_walker_frame(t.frames[remaining - 1].method) {
        remaining -= 1;
    }
    remaining = remaining.saturating_sub(skip.max(0) as usize);
    let anchor = NEXT_ANCHOR.with(|n| {
        let v = n.get();
        n.set(v + 1);
        v
    });
    WALKS.with(|w| w.borrow_mut().push(Walk { anchor, remaining }));
    let r = start_walk(t, mode, anchor, skip, batch, start);
    WALKS.with(|w| w.borrow_mut().retain(|x| x.anchor != anchor));
    r
}

fn start_walk(
    t: &mut JThread,
    mode: i64,
    anchor: i64,
    skip: i32,
    batch: i32,
    start: i32,
) -> JResult<u64> {
    let end = fill_batch(t, mode, anchor, batch, start, t.arg(6))?;
    let this = nonnull(t, t.arg(0))?;
    let args = [
        anchor as u64,
        0,
        skip as u32 as u64,
        batch as u32 as u64,
        start as u32 as u64,
        end as u32 as u64,
    ];
    t.call_virtual(this, "doStackWalk", "(JIIII)Ljava/lang/Object;", &args)
}

/// fetchStackFrames(long mode, long anchor, int batchSize, int startIndex, Object[] frames)
fn fetch_stack_frames(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let (mode, anchor) = (jlong(a[1]), jlong(a[3]));
    let end = fill_batch(t, mode, anchor, jint(a[5]), jint(a[6]), a[7])?;
    Ok(ret_int(end))
}

/// Fills `frames[start..]` with up to `batch` frames of walk `anchor` and advances its cursor;
/// returns the end index.
fn fill_batch(
    t: &mut JThread,
    mode: i64,
    anchor: i64,
    batch: i32,
    start: i32,
    frames: u64,
) -> JResult<i32> {
    let frames = nonnull(t, frames)?;
    let Some(mut remaining) = WALKS.with(|w| {
        w.borrow()
            .iter()
            .find(|x| x.anchor == anchor)
            .map(|x| x.remaining)
    }) else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("doStackWalk: corrupted buffers on stack"),
        ));
    };
    if start < 0 || batch < 0 || (start as usize + batch as usize) > frames.array_len() {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("not enough space in buffers"),
        ));
    }
    let skip_hidden = mode & SHOW_HIDDEN_FRAMES == 0 || mode & GET_CALLER_CLASS != 0;
    let mut end = start;
    while remaining > 0 && end - start < batch {
        remaining -= 1;
        let f = t.frames[remaining];
        if skip_hidden && super::jli::is_hidden_frame(f.method) {
            continue;
        }
        fill_frame(t, mode, frames, end as usize, f.method, f.bci())?;
        end += 1;
    }
    WALKS.with(|w| {
        if let Some(x) = w.borrow_mut().iter_mut().find(|x| x.anchor == anchor) {
            x.remaining = remaining;
        }
    });
    Ok(end)
}

/// Element `i` of the buffer: the frame's class, or its StackFrameInfo's method and bci.
fn fill_frame(
    t: &mut JThread,
    mode: i64,
    frames: ObjRef,
    i: usize,
    m: &'static Method,
    bci: u32,
) -> JResult<()> {
    let mirror = t.mirror(m.class)?;
    if mode & FILL_CLASS_REFS_ONLY != 0 {
        t.domain
            .heap
            .write_ref(frames, ARRAY_BASE + i * 8, Some(mirror));
        return Ok(());
    }
    let Some(info) = frames.read_ref(ARRAY_BASE + i * 8) else {
        return Err(t.throw_new(
            "java/lang/NullPointerException",
            Some("stack frame buffer element"),
        ));
    };
    let Some((mn_off, bci_off)) = frame_info_fields(info) else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("stack frame buffer of the wrong type"),
        ));
    };
    let Some(mn) = info.read_ref(mn_off) else {
        return Err(t.throw_new(
            "java/lang/NullPointerException",
            Some("StackFrameInfo.memberName"),
        ));
    };
    super::jli::init_method_member(t, mn, mirror, m)?;
    let bci = if bci == u32::MAX { 0 } else { bci as i32 };
    info.write::<i32>(bci_off, bci);
    Ok(())
}

/// Offsets of a StackFrameInfo's `memberName` and `bci` fields (None for another class).
fn frame_info_fields(info: ObjRef) -> Option<(usize, usize)> {
    use crate::jdk::JdkClass;
    let f = crate::jdk::StackFrameInfo::of(info.class()).ok()?;
    Some((f.member_name, f.bci))
}

/// initStackTraceElement(StackTraceElement element, StackFrameInfo sfi)
fn init_stack_trace_element(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let el = nonnull(t, a[0])?;
    let info = nonnull(t, a[1])?;
    let Some((mn_off, bci_off)) = frame_info_fields(info) else {
        return Err(t.throw_new("java/lang/InternalError", Some("not a StackFrameInfo")));
    };
    let o = super::jli::offsets(t)?;
    let Some(m) = info
        .read_ref(mn_off)
        .and_then(|mn| super::jli::member_method(o, mn))
    else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("StackFrameInfo without a method"),
        ));
    };
    let bci = if m.is_native() {
        u32::MAX
    } else {
        info.read::<i32>(bci_off) as u32
    };
    let fields = super::lang::SteFields::of(t)?;
    fields.fill_frame(t, el, m, bci)?;
    Ok(0)
}
