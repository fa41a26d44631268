//! Natives of java.lang.invoke (MethodHandleNatives, MethodHandle, VarHandle support).

use super::Registry;

pub fn register(_r: &mut Registry) {}
