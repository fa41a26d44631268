//! Which classes run their `assert` statements: the launcher's `-ea`/`-da` (with a class, a
//! package and its subpackages, or no name: every class but the system's) and `-esa`/`-dsa`
//! (the boot loader's classes), as HotSpot's JavaAssertions decides. The last switch naming a
//! class wins, then the one naming its closest package, then the default of its kind.
//!
//! Owns the switches and the decision; `Class.desiredAssertionStatus0` and
//! `ClassLoader.retrieveDirectives` (in `native`) report them to Java.

/// One `-ea:NAME` or `-da:NAME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Internal form ("a/b/C"); for a package its name ("a/b"; "" for the unnamed one).
    pub name: String,
    pub package: bool,
    pub enabled: bool,
}

/// The assertion switches of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assertions {
    /// `-ea` / `-da` without a name: classes not of the boot loader.
    pub user_default: bool,
    /// `-esa` / `-dsa`: classes of the boot loader.
    pub system_default: bool,
    /// Named switches, in command-line order.
    pub switches: Vec<Switch>,
}

impl Assertions {
    /// Takes launcher option `arg` if it is an assertion switch (false if not).
    pub fn apply(&mut self, arg: &str) -> bool {
        match arg {
            "-esa" | "-enablesystemassertions" => self.system_default = true,
            "-dsa" | "-disablesystemassertions" => self.system_default = false,
            _ => {
                let user = [
                    ("-ea", true),
                    ("-enableassertions", true),
                    ("-da", false),
                    ("-disableassertions", false),
                ];
                let Some((tail, enabled)) = user
                    .iter()
                    .find_map(|&(p, e)| arg.strip_prefix(p).map(|t| (t, e)))
                    .filter(|(t, _)| t.is_empty() || t.starts_with(':'))
                else {
                    return false;
                };
                match tail.strip_prefix(':') {
                    None => self.user_default = enabled,
                    Some(name) => self.switches.push(switch(name, enabled)),
                }
            }
        }
        true
    }

    /// Whether class `name` (internal form) runs its assertions; `system`: a boot class.
    pub fn enabled(&self, name: &str, system: bool) -> bool {
        let last = |package: bool, n: &str| {
            self.switches
                .iter()
                .rev()
                .find(|s| s.package == package && s.name == n)
                .map(|s| s.enabled)
        };
        if let Some(e) = last(false, name) {
            return e;
        }
        // Its package, then each enclosing one; the unnamed package only for its own classes.
        let mut package = name.rsplit_once('/').map_or("", |(p, _)| p);
        loop {
            if let Some(e) = last(true, package) {
                return e;
            }
            match package.rsplit_once('/') {
                Some((outer, _)) => package = outer,
                None => break,
            }
        }
        if system {
            self.system_default
        } else {
            self.user_default
        }
    }

    /// (name with dots, enabled) of the class switches, or of the package switches, in
    /// command-line order (`AssertionStatusDirectives`: the last one of a name wins).
    pub fn directives(&self, packages: bool) -> Vec<(String, bool)> {
        self.switches
            .iter()
            .filter(|s| s.package == packages)
            .map(|s| (s.name.replace('/', "."), s.enabled))
            .collect()
    }
}

fn switch(name: &str, enabled: bool) -> Switch {
    let (name, package) = match name.strip_suffix("...") {
        Some(p) => (p, true),
        None => (name, false),
    };
    Switch {
        name: name.replace('.', "/"),
        package,
        enabled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(args: &[&str]) -> Assertions {
        let mut a = Assertions::default();
        for arg in args {
            assert!(a.apply(arg), "{arg}");
        }
        a
    }

    #[test]
    fn defaults_classes_and_packages() {
        let a = with(&[]);
        assert!(!a.enabled("p/C", false) && !a.enabled("java/lang/String", true));
        let a = with(&["-ea"]);
        assert!(a.enabled("p/C", false) && !a.enabled("java/lang/String", true));
        let a = with(&["-esa"]);
        assert!(!a.enabled("p/C", false) && a.enabled("java/lang/String", true));
        let a = with(&[
            "-ea",
            "-da:p.q...",
            "-ea:p.q.r.Keep",
            "-enableassertions:...",
        ]);
        assert!(a.enabled("p/C", false));
        assert!(!a.enabled("p/q/C", false) && !a.enabled("p/q/s/C", false));
        assert!(a.enabled("p/q/r/Keep", false));
        assert!(a.enabled("Top", false), "the unnamed package");
        let a = with(&["-da:...", "-ea"]);
        assert!(!a.enabled("Top", false) && a.enabled("p/C", false));
        let a = with(&["-ea:p...", "-da:p..."]);
        assert!(!a.enabled("p/C", false), "the last switch of a name wins");
        assert_eq!(
            a.directives(true),
            [("p".to_string(), true), ("p".to_string(), false)]
        );
    }

    #[test]
    fn other_options_are_not_switches() {
        let mut a = Assertions::default();
        for arg in ["-eax", "-dsa:x", "-enableassertionsx", "-d64"] {
            assert!(!a.apply(arg), "{arg}");
        }
        assert_eq!(a, Assertions::default());
    }
}
