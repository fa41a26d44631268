//! A method's compiled code as every engine sees it: the profile that decides when to compile
//! ([`Tier`]), the installed code ([`Compiled`]), and the contract between compiled code and
//! the interpreter ([`EntryFn`], [`Exit`]).
//!
//! Compiled code runs *inside* an interpreter frame: the frame's slots in the thread's stack
//! (locals, then the operand stack) are the method's state whenever the VM can look at it. At
//! every call into the VM and at every exit, compiled code first writes its live values back
//! into those slots, in the interpreter's layout for that op, and records the op's index as
//! the frame's pc. The collector, stack walks and the interpreter therefore see a compiled
//! frame exactly as an interpreted one, and leaving compiled code at any op is the same as
//! having interpreted up to it (how exceptions, rare ops and deoptimization work).
//!
//! Owns these types and their encoding only; the code generator (`jit`) and the VM's glue
//! (`vm::interp`) are the two sides that use them.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicUsize, Ordering};

/// Compiled code's entry: `frame` points at the frame's first slot (local 0), `thread` is the
/// running `JThread` (whose `ThreadArea` is at offset 0), and `entry` the op index to start
/// at: 0 or one of [`Compiled::entries`]. The state at `entry` is read from the slots.
///
/// Returns an [`Exit`] encoded as a `u64`.
pub type EntryFn = unsafe extern "C" fn(frame: *mut u64, thread: *mut u8, entry: u32) -> u64;

/// How compiled code left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The method returned; its value (if any) is in the frame's slot 0.
    Returned,
    /// Continue interpreting at op `pc` with `depth` operand-stack slots; when `exception`,
    /// an exception is pending (thrown by the op at `pc`): search `pc`'s handlers.
    At {
        pc: u32,
        depth: u32,
        exception: bool,
    },
}

const RETURNED: u64 = u64::MAX;
const EXCEPTION_BIT: u64 = 1 << 62;

impl Exit {
    /// The `u64` compiled code returns for this exit.
    #[inline]
    pub const fn encode(self) -> u64 {
        match self {
            Exit::Returned => RETURNED,
            Exit::At {
                pc,
                depth,
                exception,
            } => (pc as u64) | ((depth as u64) << 32) | if exception { EXCEPTION_BIT } else { 0 },
        }
    }

    /// The exit a returned `u64` stands for.
    #[inline]
    pub const fn decode(v: u64) -> Exit {
        if v == RETURNED {
            return Exit::Returned;
        }
        Exit::At {
            pc: v as u32,
            depth: ((v >> 32) as u32) & 0x3fff_ffff,
            exception: v & EXCEPTION_BIT != 0,
        }
    }
}

/// What a stub (a VM function compiled code calls) answers: go on, or an exception is
/// pending at the op that called it.
pub const STUB_OK: u32 = 0;
pub const STUB_THREW: u32 = 1;

/// How the invoke stub picks the method it runs, from the one the call site resolved to
/// (the interpreter's rules for each instruction; the site's own checks are the stub's).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvokeKind {
    /// `invokestatic`: the method itself, once its class is initialized.
    Static = 0,
    /// `invokespecial`: selected from the caller's class (a super call) or the method.
    Special = 1,
    /// `invokevirtual`: selected by the receiver's class.
    Virtual = 2,
    /// The method itself, selected already by the site (a class check against its profile).
    Exact = 3,
}

/// Installed code of one method, shared by every domain.
#[derive(Debug)]
pub struct Compiled {
    pub entry: EntryFn,
    /// Op indices other than 0 where the code may be entered (loop headers), sorted.
    pub entries: Box<[u32]>,
    /// Bytes of machine code.
    pub code_size: usize,
    /// What the code assumes of the class hierarchy, if anything (see [`super::deps`]).
    pub assumptions: Option<&'static super::deps::Assumptions>,
}

impl Compiled {
    /// Whether the code may be entered at op `pc`.
    #[inline]
    pub fn enters_at(&self, pc: u32) -> bool {
        pc == 0 || self.entries.binary_search(&pc).is_ok()
    }
}

/// Where a method is in its life as compiled code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum TierState {
    Interpreted = 0,
    /// A compiler thread has it (or the calling thread is compiling it).
    Compiling = 1,
    Compiled = 2,
    /// The compiler refused it or failed: it stays interpreted.
    Refused = 3,
}

/// How many times a method's code may be taken out (deoptimized) and compiled again; after
/// that it stays interpreted (HotSpot's `PerMethodRecompilationCutoff`, smaller).
pub const MAX_RECOMPILES: usize = 7;

/// A method's profile and its compiled code.
///
/// The code is installed once per version: version 0 in `code`, later ones (after the code
/// of an earlier one was taken out, [`Tier::take_out`]) in `recompiled`. Code taken out is
/// never freed, since frames may still run it (they leave at their next broken assumption).
#[derive(Debug, Default)]
pub struct Tier {
    /// Invocations plus taken backward branches, while interpreted.
    counter: AtomicU32,
    state: AtomicU8,
    /// Which version is current: 0 for `code`, `k` for `recompiled[k - 1]`.
    version: AtomicU8,
    code: OnceLock<Compiled>,
    recompiled: OnceLock<Box<[OnceLock<Compiled>; MAX_RECOMPILES]>>,
    /// The installed code's entry address, or 0: the word compiled callers load to call it
    /// directly ([`Tier::entry_word`]).
    entry: AtomicUsize,
}

impl Tier {
    /// Where in a `Tier` the entry word ([`Tier::entry_word`]) is, for compiled callers that
    /// reach a tier through its method at run time.
    pub const ENTRY_AT: usize = std::mem::offset_of!(Tier, entry);

    /// The installed code, if any.
    #[inline(always)]
    pub fn code(&self) -> Option<&Compiled> {
        match self.version.load(Ordering::Acquire) {
            0 => self.code.get(),
            v => self.recompiled.get()?.get(v as usize - 1)?.get(),
        }
    }

    /// The slot of version `v`, if there may be one.
    fn slot(&self, v: u8) -> Option<&OnceLock<Compiled>> {
        match v {
            0 => Some(&self.code),
            v => self
                .recompiled
                .get_or_init(Default::default)
                .get(v as usize - 1),
        }
    }

    /// Counts `n` events; true when the count reaches `threshold` while the method is
    /// interpreted (then [`Tier::claim`] decides which thread compiles). The count is a
    /// plain load and store, as HotSpot's counters are: an update lost to a race only delays
    /// compilation, and an atomic add on every call and loop iteration would cost more.
    #[inline]
    pub fn count(&self, n: u32, threshold: u32) -> bool {
        let now = self.counter.load(Ordering::Relaxed).saturating_add(n);
        self.counter.store(now, Ordering::Relaxed);
        now >= threshold && self.state.load(Ordering::Relaxed) == TierState::Interpreted as u8
    }

    pub fn state(&self) -> TierState {
        match self.state.load(Ordering::Acquire) {
            0 => TierState::Interpreted,
            1 => TierState::Compiling,
            2 => TierState::Compiled,
            _ => TierState::Refused,
        }
    }

    /// How many times the method's code was taken out.
    pub fn recompiles(&self) -> usize {
        self.version.load(Ordering::Acquire) as usize
    }

    /// Claims the method for compiling; false if another thread has it or it is done.
    pub fn claim(&self) -> bool {
        self.state
            .compare_exchange(
                TierState::Interpreted as u8,
                TierState::Compiling as u8,
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_ok()
    }

    /// The address of the word holding the installed code's entry (0 until installed), for
    /// compiled callers: they load it at each call, and call the code when it is not 0.
    pub fn entry_word(&self) -> usize {
        &self.entry as *const AtomicUsize as usize
    }

    /// Installs `code` (after [`Tier::claim`]): every later call and loop entry uses it.
    /// Code with assumptions is installed through [`super::deps::install`].
    pub fn install(&self, code: Compiled) {
        let entry = code.entry as usize;
        let v = self.version.load(Ordering::Acquire);
        let Some(slot) = self.slot(v) else {
            // No version left: `take_out` refused the method already.
            return;
        };
        if slot.set(code).is_err() {
            unreachable!("a claimed tier's current version has no code");
        }
        self.entry.store(entry, Ordering::Release);
        self.state
            .store(TierState::Compiled as u8, Ordering::Release);
    }

    /// Gives up a claimed compile whose code cannot be installed: the method is interpreted
    /// and counted again.
    pub fn discard(&self) {
        self.counter.store(0, Ordering::Relaxed);
        self.state
            .store(TierState::Interpreted as u8, Ordering::Release);
    }

    /// Takes the installed code out if `is_it` says it is the one meant (true if it did): no
    /// new call or loop entry reaches it, and the method is interpreted and counted again until compiled
    /// anew (or for good, after [`MAX_RECOMPILES`]). Callers serialize this with
    /// installation (`deps`'s lock).
    pub fn take_out(&self, is_it: impl FnOnce(&Compiled) -> bool) -> bool {
        let v = self.version.load(Ordering::Acquire);
        if !self.code().is_some_and(is_it) {
            return false;
        }
        self.entry.store(0, Ordering::Release);
        self.version.store(v + 1, Ordering::Release);
        if (v as usize) < MAX_RECOMPILES {
            self.discard();
        } else {
            self.refuse();
        }
        true
    }

    /// Marks a claimed method as not compilable.
    pub fn refuse(&self) {
        self.state
            .store(TierState::Refused as u8, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exits_round_trip() {
        for e in [
            Exit::Returned,
            Exit::At {
                pc: 0,
                depth: 0,
                exception: false,
            },
            Exit::At {
                pc: u32::MAX - 1,
                depth: 65535,
                exception: true,
            },
            Exit::At {
                pc: 17,
                depth: 3,
                exception: false,
            },
        ] {
            assert_eq!(Exit::decode(e.encode()), e);
        }
    }

    #[test]
    fn the_threshold_fires_until_claimed() {
        let t = Tier::default();
        assert!(!t.count(1, 3));
        assert!(!t.count(1, 3));
        assert!(t.count(1, 3));
        assert!(t.claim());
        assert!(!t.count(1, 3));
        assert!(!t.claim());
        t.refuse();
        assert_eq!(t.state(), TierState::Refused);
    }

    /// An entry of `EntryFn`'s type (never called).
    #[allow(unsafe_code)] // the type is an `unsafe fn`; the body does nothing unsafe
    unsafe extern "C" fn nothing(_: *mut u64, _: *mut u8, _: u32) -> u64 {
        Exit::Returned.encode()
    }

    fn code(size: usize) -> Compiled {
        Compiled {
            entry: nothing,
            entries: Box::new([]),
            code_size: size,
            assumptions: None,
        }
    }

    #[test]
    fn code_taken_out_is_compiled_again_until_the_cutoff() {
        let t = Tier::default();
        for version in 0..=MAX_RECOMPILES {
            assert!(t.count(1, 1), "counted again after version {version}");
            assert!(t.claim());
            t.install(code(version));
            assert_eq!(t.code().map(|c| c.code_size), Some(version));
            assert_ne!(t.entry.load(Ordering::Relaxed), 0);
            // Only the code meant is taken out.
            t.take_out(|c| c.code_size != version);
            assert_eq!(t.state(), TierState::Compiled);
            t.take_out(|c| c.code_size == version);
            assert!(t.code().is_none());
            assert_eq!(t.entry.load(Ordering::Relaxed), 0);
            assert_eq!(t.recompiles(), version + 1);
        }
        assert_eq!(t.state(), TierState::Refused);
        assert!(!t.count(1, 1));
    }
}
