//! Natives of the jxvm API's Pre-Serialized Objects (`jx.pso`): containers over mapped files,
//! making PSOs and PSO arrays, array element access. The work is `crate::pso`'s; this module
//! unpacks arguments and maps host errors to Java exceptions.

use super::{Registry, jint, jlong, nonnull, ret_int};
use crate::class::BasicType;
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread};

const CONTAINER: &str = "jx/pso/Container";

pub fn register(r: &mut Registry) {
    r.add("jx/pso/PSO", "sizeOf0", "(Ljava/lang/Class;)J", |t, a| {
        let c = super::reflect::mirror_class(t, a[0])?;
        crate::pso::checked_size(t, c).map(u64::from)
    });
    r.add(
        CONTAINER,
        "allocate0",
        "(Ljava/lang/Class;)Ljx/pso/PSO;",
        |t, a| {
            let container = nonnull(t, a[0])?;
            let c = super::reflect::mirror_class(t, a[1])?;
            crate::pso::allocate(t, container, c).map(ObjRef::slot)
        },
    );
    r.add(
        CONTAINER,
        "make0",
        "(Ljava/lang/Class;JZ)Ljx/pso/PSO;",
        |t, a| {
            let container = nonnull(t, a[0])?;
            let c = super::reflect::mirror_class(t, a[1])?;
            crate::pso::make(t, container, c, jlong(a[2]), a[4] != 0).map(ObjRef::slot)
        },
    );
    r.add(
        CONTAINER,
        "array0",
        "(Ljava/lang/Class;JIZ)Ljava/lang/Object;",
        |t, a| {
            let container = nonnull(t, a[0])?;
            let c = super::reflect::mirror_class(t, a[1])?;
            crate::pso::make_array(t, container, c, jlong(a[2]), jint(a[4]), a[5] != 0)
                .map(ObjRef::slot)
        },
    );
    r.add(
        CONTAINER,
        "map0",
        "(Ljava/nio/channels/FileChannel;JZ)Ljx/memory/ReadOnlyMemory;",
        map0,
    );
    r.add(
        CONTAINER,
        "force0",
        "(Ljx/memory/ReadOnlyMemory;)V",
        |t, a| {
            let (addr, len) = super::memory::view(t, a[0])?.mapping();
            if len == 0 {
                return Ok(0);
            }
            match t.domain.host().sync_mapping(addr, len) {
                Ok(()) => Ok(0),
                Err(e) => Err(super::nio::io_exception(t, e)),
            }
        },
    );
    arrays(r);
}

/// `get(int)` and `set(int, value)` of each PSO array class.
fn arrays(r: &mut Registry) {
    macro_rules! array {
        ($class:literal, $ty:expr, $get:literal, $set:literal, $ret:expr) => {
            r.add($class, "get", $get, |t, a| {
                let arr = nonnull(t, a[0])?;
                crate::pso::array_load(t, arr, $ty, jint(a[1])).map($ret)
            });
            r.add($class, "set", $set, |t, a| {
                let arr = nonnull(t, a[0])?;
                crate::pso::array_store(t, arr, $ty, jint(a[1]), a[2]).map(|_| 0)
            });
        };
    }
    array!("jx/pso/IntArray", BasicType::Int, "(I)I", "(II)V", |v| v);
    array!("jx/pso/LongArray", BasicType::Long, "(I)J", "(IJ)V", |v| v);
    array!(
        "jx/pso/DoubleArray",
        BasicType::Double,
        "(I)D",
        "(ID)V",
        |v| v
    );
    array!("jx/pso/ByteArray", BasicType::Byte, "(I)B", "(IB)V", |v| {
        ret_int(v as u32 as i32)
    });
}

/// `ReadOnlyMemory map0(FileChannel fc, long size, boolean writable)`: a memory object over a
/// shared mapping of the channel's file's first `size` bytes.
fn map0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fc = nonnull(t, a[0])?;
    let size = jlong(a[1]);
    let writable = a[3] != 0;
    let fdo = fc.read_ref(t.jdk::<crate::jdk::FileChannelImpl>(fc)?.fd);
    let fd = super::io::fdval(t, crate::heap::to_slot(fdo))?;
    let Ok(len) = usize::try_from(size) else {
        let msg = format!("negative size: {size}");
        return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)));
    };
    let view = if len == 0 {
        let v = crate::memory::View::allocate(0).expect("an empty view");
        if writable {
            v
        } else {
            v.read_only().expect("a valid view")
        }
    } else {
        let base = match t.domain.host().map_for_memory(fd, writable, len) {
            Ok(base) => base,
            Err(e) => return Err(super::nio::io_exception(t, e)),
        };
        // SAFETY: `map_for_memory` made this whole mapping for us alone.
        #[allow(unsafe_code)]
        unsafe {
            crate::memory::View::over_mapping(base, len, writable)
        }
    };
    let class = if writable {
        "jx/memory/Memory"
    } else {
        crate::memory::VIEW_CLASS
    };
    super::memory::new_memory_object(t, class, view)
}
