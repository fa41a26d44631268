//! A method's code as every engine sees it, built once per method and shared by all domains:
//! the pre-decoded ops ([`decode`], [`op`], with superinstructions from [`fuse`]), one table
//! of their operand-stack effects ([`effect`]), and what is computed from them: the proof of a
//! frame's bounds ([`depth`]), the collector's reference maps ([`oopmap`]), the helpful
//! NullPointerException messages ([`npe`]), the inline caches of call sites ([`icache`]), and
//! the profile and compiled code of the method ([`compiled`]).
//!
//! Class metadata holds a method's [`Prepared`] code; the interpreter (`vm::interp`) runs
//! it, and a JIT will compile it. Nothing here runs Java code, allocates in a heap or knows a
//! thread or a domain.

pub mod compiled;
pub mod decode;
pub mod deps;
pub mod depth;
pub mod effect;
pub mod fuse;
#[allow(unsafe_code)] // lock-free inline caches
pub mod icache;
pub mod npe;
pub mod oopmap;
pub mod op;

pub use decode::Prepared;
pub use op::Op;
