//! Owns the `--io` value: which backend a domain gets (`host`, or
//! `9p:ADDR[,aname=PATH][,timeout=SECONDS][,cache=on|off][,cachedump=FILE][,stream=off]`), parsed once by the launcher or the
//! system description and handed to the domain that is created with it.

use std::fmt;

/// Which backend a domain's [`crate::Host`] is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum IoSpec {
    /// Direct system calls ([`crate::HostBackend`]).
    #[default]
    Host,
    /// A 9P2000.L server ([`super::NinepBackend`]).
    NineP(NinepSpec),
}

/// Where a 9P backend attaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NinepSpec {
    /// `unix:PATH` or `tcp:HOST:PORT`.
    pub addr: String,
    /// The tree to attach (`Tattach`'s aname), empty by default.
    pub aname: String,
    /// How long a request waits for the server's reply (`timeout=SECONDS`, 0 for ever);
    /// [`ninep::client::DEFAULT_TIMEOUT`] by default.
    pub timeout: Option<std::time::Duration>,
    /// Whether file contents are cached in the process (`cache=on|off`, on by default; see
    /// [`super::cache`]).
    pub cache: bool,
    /// A host file the file cache is loaded from at start and written to at exit
    /// (`cachedump=PATH`; see [`super::dump`]).
    pub cache_dump: Option<std::path::PathBuf>,
}

impl NinepSpec {
    /// A spec of `addr` with the default aname and timeout.
    pub fn new(addr: &str) -> NinepSpec {
        NinepSpec {
            addr: addr.to_string(),
            aname: String::new(),
            timeout: Some(ninep::client::DEFAULT_TIMEOUT),
            cache: true,
            cache_dump: None,
        }
    }
}

impl fmt::Display for IoSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoSpec::Host => f.write_str("host"),
            IoSpec::NineP(s) => {
                write!(f, "9p:{}", s.addr)?;
                if !s.aname.is_empty() {
                    write!(f, ",aname={}", s.aname)?;
                }
                if s.timeout != Some(ninep::client::DEFAULT_TIMEOUT) {
                    let secs = s.timeout.map_or(0, |t| t.as_secs());
                    write!(f, ",timeout={secs}")?;
                }
                if !s.cache {
                    f.write_str(",cache=off")?;
                }
                if let Some(p) = &s.cache_dump {
                    write!(f, ",cachedump={}", p.display())?;
                }
                Ok(())
            }
        }
    }
}

impl IoSpec {
    /// Parses an `--io` value; the error is one line for the user.
    pub fn parse(s: &str) -> Result<IoSpec, String> {
        if s == "host" {
            return Ok(IoSpec::Host);
        }
        let Some(rest) = s.strip_prefix("9p:") else {
            return Err(format!(
                "bad --io value `{s}` (expected host or 9p:unix:PATH|tcp:HOST:PORT[,aname=PATH])"
            ));
        };
        let mut parts = rest.split(',');
        let addr = parts.next().unwrap_or_default();
        ninep::addr::Addr::parse(addr).map_err(|e| format!("--io: {e}"))?;
        let mut spec = NinepSpec::new(addr);
        for opt in parts {
            apply_option(&mut spec, opt)?;
        }
        Ok(IoSpec::NineP(spec))
    }
}

/// One `,key=value` of a 9P spec. Socket streaming (issue 22, item 4) is not built yet:
/// `stream=off` is accepted, `stream=on` is refused rather than silently ignored.
fn apply_option(spec: &mut NinepSpec, opt: &str) -> Result<(), String> {
    match opt.split_once('=') {
        Some(("aname", v)) => spec.aname = v.to_string(),
        Some(("timeout", v)) => {
            let secs: u64 = v
                .parse()
                .map_err(|_| format!("--io: bad timeout `{v}` (seconds, 0 for none)"))?;
            spec.timeout = (secs > 0).then(|| std::time::Duration::from_secs(secs));
        }
        Some(("cache", v @ ("on" | "off"))) => spec.cache = v == "on",
        Some(("cachedump", "")) => return Err("--io: cachedump needs a file name".into()),
        Some(("cachedump", v)) => spec.cache_dump = Some(v.into()),
        Some(("stream", "off")) => {}
        Some(("stream", "on")) => {
            return Err("--io: stream=on is not implemented yet".into());
        }
        _ => return Err(format!("--io: unknown option `{opt}`")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_of_the_issue() {
        assert_eq!(IoSpec::parse("host"), Ok(IoSpec::Host));
        let s = IoSpec::parse("9p:unix:/run/gw.sock,aname=/srv,cache=off").unwrap();
        assert_eq!(
            s,
            IoSpec::NineP(NinepSpec {
                aname: "/srv".into(),
                cache: false,
                ..NinepSpec::new("unix:/run/gw.sock")
            })
        );
        assert_eq!(s.to_string(), "9p:unix:/run/gw.sock,aname=/srv,cache=off");
        let on = IoSpec::parse("9p:unix:/s,cache=on").unwrap();
        assert_eq!(on, IoSpec::parse("9p:unix:/s").unwrap());
        assert_eq!(on.to_string(), "9p:unix:/s");
        let t = IoSpec::parse("9p:unix:/s,timeout=5").unwrap();
        assert_eq!(t.to_string(), "9p:unix:/s,timeout=5");
        let IoSpec::NineP(n) = IoSpec::parse("9p:unix:/s,timeout=0").unwrap() else {
            panic!()
        };
        assert_eq!(n.timeout, None);
        assert!(IoSpec::parse("9p:unix:/s,timeout=x").is_err());
        assert!(IoSpec::parse("9p:tcp:127.0.0.1:564").is_ok());
        for bad in [
            "",
            "9p",
            "9p:",
            "9p:udp:x",
            "9p:tcp:h",
            "nfs:x",
            "9p:unix:/s,x=y",
        ] {
            assert!(IoSpec::parse(bad).is_err(), "{bad}");
        }
        assert!(IoSpec::parse("9p:unix:/s,cache=maybe").is_err());
        let d = IoSpec::parse("9p:unix:/s,cachedump=/tmp/c.dump").unwrap();
        assert_eq!(d.to_string(), "9p:unix:/s,cachedump=/tmp/c.dump");
        assert!(IoSpec::parse("9p:unix:/s,cachedump=").is_err());
        assert!(IoSpec::parse("9p:unix:/s,stream=on").is_err());
    }
}
