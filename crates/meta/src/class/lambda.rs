//! The shape of a lambda proxy class: where its captured values live and, for a serializable
//! lambda, the call-site facts its `writeReplace` records. Metadata the proxy is defined with;
//! `vm::invoke::lambda` spins the proxies and runs them.

use super::{BasicType, Class, Method};

/// The shape of a lambda proxy: its captured values' types and field offsets.
#[derive(Debug)]
pub struct LambdaShape {
    /// The class whose call site made it (its host: the proxy has its ProtectionDomain).
    pub caller: &'static Class,
    pub captured: Vec<(BasicType, u32)>,
    pub captured_slots: usize,
    /// For serializable lambdas: what `writeReplace` records.
    pub serial: Option<Box<SerialForm>>,
}

/// The call site facts a serializable lambda's `SerializedLambda` carries.
#[derive(Debug)]
pub struct SerialForm {
    pub capturing: &'static Class,
    pub iface: String,
    pub sam_name: String,
    pub sam_desc: String,
    pub impl_kind: u8,
    pub impl_method: &'static Method,
    pub instantiated_desc: String,
}
