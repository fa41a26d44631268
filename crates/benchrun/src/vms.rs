//! The VMs a suite compares: jxvm in its default tiered mode and interpreted only, HotSpot with
//! its C2 JIT, with C1 alone and interpreted only; their labels, their command-line flags, and
//! the ratios of one VM's time over another's that a report gives.

/// One VM configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vm {
    /// jxvm's default mode: the interpreter, then compiled code for hot methods.
    Jxvm,
    /// `jxvm -Xint`: the interpreter alone.
    JxvmInt,
    /// `java`: HotSpot tiered up to C2.
    Java,
    /// `java -XX:TieredStopAtLevel=1`: HotSpot's C1 alone.
    JavaC1,
    /// `java -Xint`: HotSpot's template interpreter.
    JavaInt,
}

impl Vm {
    /// The name in tables and progress lines.
    pub fn label(self) -> &'static str {
        match self {
            Vm::Jxvm => "jxvm",
            Vm::JxvmInt => "jxvm -Xint",
            Vm::Java => "java",
            Vm::JavaC1 => "java C1",
            Vm::JavaInt => "java -Xint",
        }
    }

    /// Whether the binary is jxvm's (else HotSpot's `java`).
    pub fn is_jxvm(self) -> bool {
        matches!(self, Vm::Jxvm | Vm::JxvmInt)
    }

    /// The options that select the mode, before the kernel's own.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Vm::Jxvm | Vm::Java => &[],
            Vm::JxvmInt | Vm::JavaInt => &["-Xint"],
            Vm::JavaC1 => &["-XX:TieredStopAtLevel=1"],
        }
    }
}

/// The five of the main suite (issue 18): both jxvm modes and HotSpot's three.
pub const FIVE: &[Vm] = &[Vm::Jxvm, Vm::JxvmInt, Vm::Java, Vm::JavaC1, Vm::JavaInt];

/// The three of the gc and threads suites.
pub const THREE: &[Vm] = &[Vm::Jxvm, Vm::JavaInt, Vm::Java];

/// A ratio column: the first VM's median time over the second's.
pub type Pair = (Vm, Vm);

/// The main suite's ratios: to C2, to C1, interpreter to interpreter, and the JIT's own gain.
pub const FIVE_RATIOS: &[Pair] = &[
    (Vm::Jxvm, Vm::Java),
    (Vm::Jxvm, Vm::JavaC1),
    (Vm::JxvmInt, Vm::JavaInt),
    (Vm::Jxvm, Vm::JxvmInt),
];

/// The gc and threads suites' ratios.
pub const THREE_RATIOS: &[Pair] = &[(Vm::Jxvm, Vm::JavaInt), (Vm::Jxvm, Vm::Java)];

/// The column heading of a ratio, `a / b`.
pub fn pair_label((a, b): Pair) -> String {
    format!("{} / {}", a.label(), b.label())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_flags() {
        let labels: Vec<_> = FIVE.iter().map(|v| v.label()).collect();
        assert_eq!(
            labels,
            ["jxvm", "jxvm -Xint", "java", "java C1", "java -Xint"]
        );
        assert_eq!(Vm::JavaC1.flags(), ["-XX:TieredStopAtLevel=1"]);
        assert_eq!(Vm::JxvmInt.flags(), ["-Xint"]);
        assert!(Vm::Jxvm.flags().is_empty() && Vm::Java.flags().is_empty());
        assert!(Vm::JxvmInt.is_jxvm() && !Vm::JavaInt.is_jxvm());
        assert_eq!(pair_label(FIVE_RATIOS[2]), "jxvm -Xint / java -Xint");
    }

    #[test]
    fn ratios_name_only_vms_of_their_set() {
        for (set, pairs) in [(FIVE, FIVE_RATIOS), (THREE, THREE_RATIOS)] {
            assert!(
                pairs
                    .iter()
                    .all(|(a, b)| set.contains(a) && set.contains(b))
            );
        }
    }
}
