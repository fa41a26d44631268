//! Natives of sun.nio.fs and sun.nio.ch (the NIO file system and file channels).

use super::Registry;

pub fn register(_r: &mut Registry) {}
