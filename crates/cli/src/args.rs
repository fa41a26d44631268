//! java-compatible command-line parsing.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use vm::embed::{Mode, Options};

pub const USAGE: &str = "Usage: jxvm [options] <mainclass> [args...]
           (to execute a class)
   or  jxvm [options] -jar <jarfile> [args...]
           (to execute a jar file)
   or  jxvm [options] --system <file.toml>
           (to run a system of domains described by the file)
   or  jxvm gateway --export DIR [--read-only] --listen unix:PATH|tcp:HOST:PORT [--stats]
           (to serve DIR over 9P2000.L; jxvm gateway --help)
   or  jxvm serve [--socket PATH] [VM options]
           (to start a fork server: a booted VM that runs programs in forked children)
   or  jxvm --via SOCKET [options] <mainclass> [args...]
           (to run the program in a child of that fork server; JXVM_SERVER=SOCKET
           does the same; with no server answering, it runs in-process)

 Arguments following the main class or -jar <jarfile> are passed as the
 arguments to main class.

 where options include:
    -cp <class search path of directories and zip/jar files>
    -classpath <class search path of directories and zip/jar files>
    --class-path <class search path of directories and zip/jar files>
                  A : separated list of directories, JAR archives,
                  and ZIP archives to search for class files.
    -D<name>=<value>
                  set a system property
    -Xmx<size>    set maximum Java heap size
    -Xms<size>    set initial Java heap size
    -Xmn<size>    set the size of the young generation (nursery)
    -Xss<size>    set java thread stack size
    -Xverify:none do not verify application classes
    -showversion  print product version to the error stream and continue
    --show-version
                  print product version to the output stream and continue
    -XshowSettings[:all|vm|properties|locale|security|system]
                  show settings (as java) and continue
    -Xrs          reduce use of OS signals by Java/VM (see documentation)
    --add-opens|--add-exports|--add-reads <module>/<package>=<target-module>(,<target-module>)*
    --add-modules|--limit-modules <module name>[,<module name>...]
    --patch-module <module>=<file>(:<file>)*
    --enable-native-access <module name>[,<module name>...]
                  as java: given to the JDK's module system
    -ea[:<packagename>...|:<classname>]
    -enableassertions[:<packagename>...|:<classname>]
                  enable assertions with specified granularity
    -da[:<packagename>...|:<classname>]
    -disableassertions[:<packagename>...|:<classname>]
                  disable assertions with specified granularity
    -esa | -enablesystemassertions
                  enable system assertions
    -dsa | -disablesystemassertions
                  disable system assertions
    -verbose:gc, -Xlog:gc
                  print a line for every garbage collection
    -verbose:class, -Xlog:class+load
                  print a line for every class loaded
    -Xlog:class+unload
                  print a line for every class unloaded (classes of ended domains)
    -Xlog:9p      print a line for every 9P request of a --io=9p backend (type,
                  tag, fid, size, reply, latency) on stderr
    -Xgc:stress   collect at every allocation (testing)
    -Xgc:verify   verify the whole heap after every collection (testing)
    --system <file.toml>
                  create the domains the file describes, run their components,
                  and wait for them (see README: Domains and portals)
    --io=host|9p:unix:<path>|9p:tcp:<host>:<port>[,aname=<path>][,timeout=<s>][,cache=on|off]
                  where the program's files are: the host (default), or a 9P2000.L
                  server whose root is the program's / (and its working directory);
                  its sockets go over the server's /net (jxvm gateway --net);
                  cache=on (the default) keeps file contents read in the process
    --sandbox     with --io=9p: the process reaches the host only through its 9P
                  connection (Landlock and seccomp; the JDK's directory stays
                  readable; see README: The sandbox)
    --api-jar     print the path of the jxvm API jar (jx.memory, ...) for javac -cp
    --print-mappings
                  print the code mappings: the method calls and field accesses the
                  interpreter and the JIT replace with VM primitives
    --dry-run     create VM and load main class but do not execute main method
    --make-home <dir>
                  make <dir> a JAVA_HOME whose bin/java runs this jxvm (its other
                  tools and lib/, conf/, release link to the JDK's)
    -version      print product version to the error stream and exit
    --version     print product version to the output stream and exit
    -help, -h, -?, --help
                  print this help message
";

/// `-X`'s text: the extra options jxvm takes.
pub const EXTRA_USAGE: &str = "
    -Xbatch, -Xdebug, -Xdiag, -Xcheck:jni, -Xnoclassgc, -Xmaxjitcodesize<size>
                      taken as java takes them; they change nothing in jxvm
                      (a VM without JNI)
    -Xint, -Xmixed, -Xcomp
                      interpreter only; compiled once hot (default); compiled first
    -Xshare:auto|on|off
                      the class cache: used if it can be (default), required, never
    -XX:SharedArchiveFile=<file>
                      the class cache file (default: one per jxvm build and JDK under
                      $XDG_CACHE_HOME/jxvm or ~/.cache/jxvm; see `jxvm cache`)
    -XX:SharedCacheSize=<size>
                      the class cache's size limit (default 32m; least recently used
                      entries are evicted)
    -Xfuture          deprecated (java's warning), changes nothing
    -Xinternalversion
                      displays more detailed version information than -version
    -Xlog:gc, -Xlog:class+load, -Xlog:class+unload, -Xlog:9p
                      print a line for every collection, class loaded, class unloaded,
                      9P request
    -Xmn<size>        sets the size (in bytes) of the young generation (nursery)
    -Xms<size>        set initial Java heap size
    -Xmx<size>        set maximum Java heap size
    -Xrs              reduce use of OS signals by Java/VM (see documentation)
    -XshowSettings[:all|vm|properties|locale|security|system]
                      show settings and continue
    -Xss<size>        set java thread stack size
    -Xbootclasspath/a:<directories and zip/jar files separated by :>
                      append to end of bootstrap class path
    -Xverify:none|remote|all
                      do not verify application classes (none), or do (the others)
    -Xgc:stress       collect at every allocation (testing)
    -Xgc:verify       verify the whole heap after every collection (testing)
    --add-reads, --add-exports, --add-opens, --limit-modules, --patch-module
                      as java: given to the JDK's module system

These extra options are subject to change without notice.
";

pub struct Run {
    pub opts: Options,
    pub main_class: String,
    /// The program's arguments as the host gave them (decoded by the VM as java does).
    pub args: Vec<Vec<u8>>,
    /// `-XshowSettings[:WHAT]`: printed on stderr once the VM is created.
    pub settings: Option<Settings>,
    /// `-showversion` (false) or `--show-version` (true: on stdout), printed after the settings.
    pub show_version: Option<bool>,
    /// What the launcher does once the VM is created (and the settings and version shown).
    pub finish: Finish,
    /// `--sandbox` (with a 9P backend): the host closed to the process.
    pub sandbox: bool,
    /// The hidden `--sandbox-probe=PORT`: print what raw system calls give once the VM is
    /// started (and sandboxed), trying a host TCP listener on `PORT` (for the tests).
    pub probe: Option<u16>,
}

/// What java does once the VM is created.
#[derive(PartialEq, Default)]
pub enum Finish {
    #[default]
    RunMain,
    /// Nothing more (`-version` after `-XshowSettings`, `--validate-modules`).
    Exit,
    /// `--list-modules`: LauncherHelper lists the observable modules.
    ListModules,
    /// `--describe-module NAME` (`-d`): LauncherHelper describes it.
    DescribeModule(String),
    /// `--dry-run`: LauncherHelper loads and checks the main class, which does not run.
    DryRun,
    /// No main class after `-XshowSettings`: the usage, on stderr, and exit 1.
    Usage,
}

/// What java hands LauncherHelper.showSettings: the option and the sizes given (0: not given).
pub struct Settings {
    pub flag: String,
    pub initial_heap: u64,
    pub max_heap: u64,
    pub stack: u64,
}

pub enum Command {
    Help,
    /// `-X` (on stderr) or `--help-extra` (on stdout): the extra options.
    HelpExtra {
        to_stdout: bool,
    },
    /// `-Xinternalversion`.
    InternalVersion,
    /// `--api-jar`: print the path of the jxvm API jar (writing it out first).
    ApiJar,
    /// `--print-mappings`: print the code mappings.
    PrintMappings,
    /// `--make-home DIR`: make DIR a JAVA_HOME whose `bin/java` is jxvm.
    MakeHome(PathBuf),
    Version {
        to_stdout: bool,
        mode: Mode,
    },
    /// Options java refuses after parsing: print these and exit 1.
    Refuse {
        stdout: String,
        stderr: String,
    },
    Run(Run),
    /// `--system FILE`: the domains of a system description, created from a launcher domain
    /// booted with `opts`.
    System {
        opts: Options,
        domains: Vec<vm::embed::Spec>,
    },
}

/// Why a size option was refused (HotSpot's `ArgsRange`).
#[derive(Debug, PartialEq)]
pub enum SizeError {
    /// Not a number with an optional k/m/g/t suffix, or too big to represent.
    Unreadable,
    TooSmall,
    TooBig,
}

/// Parses a size as HotSpot does (`parse_memory_size`): decimal or `0x` hexadecimal digits
/// (no sign, no spaces) and an optional `k`, `m`, `g` or `t` suffix, then checks it against
/// `min..=max`.
pub fn parse_size_in(s: &str, min: u64, max: u64) -> Result<u64, SizeError> {
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (s, 10),
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    if end == 0 {
        return Err(SizeError::Unreadable);
    }
    let n = u64::from_str_radix(&digits[..end], radix).map_err(|_| SizeError::Unreadable)?;
    let mult: u64 = match &digits[end..] {
        "" => 1,
        "k" | "K" => 1 << 10,
        "m" | "M" => 1 << 20,
        "g" | "G" => 1 << 30,
        "t" | "T" => 1 << 40,
        _ => return Err(SizeError::Unreadable),
    };
    let size = n.checked_mul(mult).ok_or(SizeError::Unreadable)?;
    if size < min {
        Err(SizeError::TooSmall)
    } else if size > max {
        Err(SizeError::TooBig)
    } else {
        Ok(size)
    }
}

/// Parses a size like `512m`, `2G`, `1024k` or `4096` (bytes).
pub fn parse_size(s: &str) -> Option<usize> {
    parse_size_in(s, 0, u64::MAX)
        .ok()
        .and_then(|n| usize::try_from(n).ok())
}

/// HotSpot's last two lines when it refuses its options.
/// HotSpot's smallest `-XX:ReservedCodeCacheSize` (its InitialCodeCacheSize on x86-64).
const MIN_CODE_CACHE: usize = 2496 << 10;

pub const NOT_CREATED: &str = "Error: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred. Program will exit.";

/// Parses the size of option `a` (whose value starts at byte 4) as HotSpot does, with its
/// message (`what`) on failure.
fn size_option(a: &str, what: &str, min: u64, max: u64) -> Result<u64, String> {
    size_value(a, &a[4..], what, min, max)
}

/// As `size_option`, for the value `value` of option `a`.
fn size_value(a: &str, value: &str, what: &str, min: u64, max: u64) -> Result<u64, String> {
    parse_size_in(value, min, max).map_err(|e| {
        let range = if e == SizeError::TooBig {
            "The specified size exceeds the maximum representable size.\n"
        } else {
            ""
        };
        format!("Invalid {what}: {a}\n{range}{NOT_CREATED}")
    })
}

/// The largest `-Xss` HotSpot takes (1 GiB) and the smallest non-zero one (136 KiB; 0 means
/// the default).
const MAX_XSS: u64 = 1 << 30;
const MIN_XSS: u64 = 136 << 10;
/// The largest `-Xmn` HotSpot's ergonomics take on x86-64 Linux.
const MAX_XMN: u64 = (1 << 52) - (1 << 20);

/// The JDK to run on: the home whose `bin/java` this process was started as, JAVA_HOME, then
/// Debian's standard location.
pub fn find_java_home() -> Result<PathBuf, String> {
    let mut candidates: Vec<PathBuf> = crate::home::invoked_home().into_iter().collect();
    if let Ok(h) = std::env::var("JAVA_HOME") {
        candidates.push(PathBuf::from(h));
    }
    candidates.push(PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64"));
    candidates.push(PathBuf::from("/usr/lib/jvm/java-17-openjdk"));
    for c in candidates {
        if c.join("lib/modules").is_file() && is_jdk17(&c) {
            return Ok(c);
        }
    }
    Err("Error: no JDK 17 found (set JAVA_HOME, or install one: apt-get install openjdk-17-jdk-headless)".into())
}

fn is_jdk17(home: &std::path::Path) -> bool {
    std::fs::read_to_string(home.join("release")).map_or(true, |r| r.contains("JAVA_VERSION=\"17"))
}

/// java's version lines: `-version`'s (`openjdk version "17..."`), or with `long_option`
/// `--version`'s (`openjdk 17...`).
pub fn version_text(long_option: bool, mode: Mode) -> String {
    let (version, date, runtime) = jdk_versions();
    let version = if long_option {
        version
    } else {
        format!("version \"{version}\"")
    };
    format!(
        "openjdk {version} {date}\nOpenJDK Runtime Environment (build {runtime})\njxvm (build {}, {})\n",
        env!("CARGO_PKG_VERSION"),
        mode.info()
    )
}

/// `-Xinternalversion`'s line.
pub fn internal_version_text() -> String {
    let (_, _, runtime) = jdk_versions();
    format!(
        "jxvm ({}) for linux-amd64 JRE ({runtime}), {}\n",
        env!("CARGO_PKG_VERSION"),
        Mode::Mixed.info()
    )
}

/// The JDK's version, its date and its runtime version, from its `release` file.
fn jdk_versions() -> (String, String, String) {
    match find_java_home() {
        Ok(h) => {
            let r = std::fs::read_to_string(h.join("release")).unwrap_or_default();
            let get = |k: &str| {
                r.lines()
                    .find_map(|l| {
                        l.strip_prefix(&format!("{k}="))
                            .map(|v| v.trim_matches('"').to_string())
                    })
                    .unwrap_or_default()
            };
            (
                get("JAVA_VERSION"),
                get("JAVA_VERSION_DATE"),
                get("JAVA_RUNTIME_VERSION"),
            )
        }
        Err(_) => ("17".into(), String::new(), String::new()),
    }
}

/// Parses java's command line. Options are read as text (bytes that are not UTF-8 replaced);
/// the program's arguments stay bytes, for the VM to decode in the platform's encoding.
pub fn parse_args(raw: &[OsString]) -> Result<Command, String> {
    let argv: Vec<String> = raw
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let ignore = argv.iter().any(|a| a == "-XX:+IgnoreUnrecognizedVMOptions");
    let mut p = Parser {
        argv: &argv,
        i: 0,
        g: Given {
            xx: crate::xx::State::new(ignore),
            ..Given::default()
        },
    };
    while let Some(a) = p.argv.get(p.i).filter(|a| a.starts_with('-')) {
        match p.option(a)? {
            Step::Next => p.i += 1,
            Step::Stop => break,
            Step::Done(cmd) => return Ok(*cmd),
        }
    }
    if let Some(refused) = p.g.size_checks() {
        return refused;
    }
    let Parser { i, g, .. } = p;
    match g.vm_options()? {
        Ok(opts) => g.command(opts, &argv, i, raw),
        Err(refused) => Ok(refused),
    }
}

/// What the options before the main class (or `-jar`) said.
#[derive(Default)]
struct Given {
    classpath: Option<String>,
    props: Vec<(String, String)>,
    xmx: Option<u64>,
    xms: Option<u64>,
    xmn: Option<u64>,
    xss: Option<u64>,
    no_verify: bool,
    vm_args: Vec<String>,
    jar: Option<String>,
    system: Option<String>,
    gc_log: bool,
    gc_stress: bool,
    gc_verify: bool,
    class_unload_log: bool,
    class_load_log: bool,
    assertions: vm::embed::Assertions,
    modules: ModuleOptions,
    reduce_signal_usage: bool,
    /// `-Xint`, `-Xcomp`, `-Xmixed` and the compiler's `-XX` flags.
    jit: Option<vm::embed::JitOptions>,
    /// `-Xshare`, `-XX:SharedArchiveFile`, `-XX:SharedCacheSize`.
    class_cache: vm::embed::CacheOptions,
    xx: crate::xx::State,
    /// `-version` (false) or `--version` (true).
    version: Option<bool>,
    show_version: Option<bool>,
    show_settings: Option<String>,
    finish: Finish,
    source: Option<String>,
    boot_append: String,
    /// `--io=`: the application domain's backend.
    io: port::IoSpec,
    /// `--sandbox`.
    sandbox: bool,
    /// `--sandbox-probe=PORT` (hidden, for the tests).
    probe: Option<u16>,
}

/// What reading one option leaves to do.
enum Step {
    /// Go on with the next argument.
    Next,
    /// The options end here (what follows is the main class, or `-jar`'s arguments).
    Stop,
    /// Nothing more to read: this is the command.
    Done(Box<Command>),
}

/// java's command line being read: `i` is the argument at hand.
struct Parser<'a> {
    argv: &'a [String],
    i: usize,
    g: Given,
}

impl Parser<'_> {
    /// The argument after option `a` (its value), or `missing`'s message.
    fn value(&mut self, missing: impl FnOnce() -> String) -> Result<String, String> {
        self.i += 1;
        self.argv.get(self.i).cloned().ok_or_else(missing)
    }

    fn option(&mut self, a: &str) -> Result<Step, String> {
        if let Some(step) = self.launcher_option(a)? {
            return Ok(step);
        }
        if let Some(step) = self.module_option(a)? {
            return Ok(step);
        }
        let g = &mut self.g;
        if g.size_option(a)? || g.vm_option(a)? {
            g.vm_args.push(a.to_string());
            return Ok(Step::Next);
        }
        Err(refusal(a))
    }

    /// The launcher's own options: the class path, what to run, what to print.
    fn launcher_option(&mut self, a: &str) -> Result<Option<Step>, String> {
        let step = match a {
            "-cp" | "-classpath" | "--class-path" => {
                let cp = self.value(|| format!("Error: {a} requires class path specification"))?;
                self.g.classpath = Some(cp);
                Step::Next
            }
            "-jar" | "--system" => {
                let missing = match a {
                    "-jar" => "Error: -jar requires jar file specification",
                    _ => "Error: --system requires a system description file",
                };
                let v = self.value(|| missing.to_string())?;
                *if a == "-jar" {
                    &mut self.g.jar
                } else {
                    &mut self.g.system
                } = Some(v);
                self.i += 1;
                Step::Stop
            }
            _ if let Some(v) = a.strip_prefix("--io=") => {
                self.g.io = port::IoSpec::parse(v).map_err(|e| format!("Error: {e}"))?;
                Step::Next
            }
            "--sandbox" => {
                self.g.sandbox = true;
                Step::Next
            }
            _ if let Some(v) = a.strip_prefix("--sandbox-probe=") => {
                let port = v.parse().map_err(|_| format!("Error: bad port in {a}"))?;
                self.g.probe = Some(port);
                Step::Next
            }
            // java reads no option after these, and checks those before them.
            "-version" | "--version" => {
                self.g.version = Some(a == "--version");
                Step::Stop
            }
            "-help" | "-h" | "-?" | "--help" => Step::Done(Box::new(Command::Help)),
            "-X" | "--help-extra" => Step::Done(Box::new(Command::HelpExtra {
                to_stdout: a != "-X",
            })),
            "-Xinternalversion" => Step::Done(Box::new(Command::InternalVersion)),
            "--api-jar" => Step::Done(Box::new(Command::ApiJar)),
            "--print-mappings" => Step::Done(Box::new(Command::PrintMappings)),
            "--make-home" => {
                let dir = self.value(|| "Error: --make-home requires a directory".into())?;
                Step::Done(Box::new(Command::MakeHome(PathBuf::from(dir))))
            }
            _ if a == "--source" || a.starts_with("--source=") => {
                let v = match a.strip_prefix("--source=") {
                    Some(v) => v.to_string(),
                    None => self.value(|| "Error: --source requires source version".into())?,
                };
                self.g.source = Some(v);
                Step::Next
            }
            // java prints these once the VM is created, before running the program.
            "-showversion" | "--show-version" => {
                self.g.show_version = Some(a == "--show-version");
                self.g.vm_args.push(a.to_string());
                Step::Next
            }
            _ if a == "-XshowSettings" || a.starts_with("-XshowSettings:") => {
                self.g.show_settings = Some(a.to_string());
                self.g.vm_args.push(a.to_string());
                Step::Next
            }
            _ => return Ok(None),
        };
        Ok(Some(step))
    }

    /// The module system's options, and `--enable-preview`.
    fn module_option(&mut self, a: &str) -> Result<Option<Step>, String> {
        let g = &mut self.g;
        match a {
            "--list-modules" => g.finish = Finish::ListModules,
            "--dry-run" => g.finish = Finish::DryRun,
            "-d" | "--describe-module" => {
                let name = self.value(|| format!("Error: {a} requires module name"))?;
                self.g.finish = Finish::DescribeModule(name);
            }
            _ if let Some(name) = a.strip_prefix("--describe-module=") => {
                g.finish = Finish::DescribeModule(name.to_string());
            }
            // ModuleBootstrap checks every module when it finds this, and java exits after.
            "--validate-modules" => {
                g.finish = Finish::Exit;
                g.props
                    .push(("jdk.module.validation".into(), "true".into()));
            }
            "--show-module-resolution" => {
                g.props
                    .push(("jdk.module.showModuleResolution".into(), "true".into()));
            }
            "--enable-preview" => {
                classfile::enable_preview();
                g.vm_args.push(a.to_string());
            }
            _ if a.starts_with("--illegal-access") => eprintln!(
                "OpenJDK 64-Bit Server VM warning: Ignoring option {a}; support was removed in 17.0"
            ),
            _ if let Some((name, prop, inline)) = module_option(a) => {
                let value = match inline {
                    Some(v) => v.to_string(),
                    None => {
                        self.value(|| format!("Error: {name} requires modules to be specified"))?
                    }
                };
                self.g.vm_args.push(format!("{name}={value}"));
                let property = self.g.modules.property(prop, value);
                self.g.props.push(property);
            }
            _ => return Ok(None),
        }
        Ok(Some(Step::Next))
    }
}

/// java's message for an option it refuses or does not know.
fn refusal(a: &str) -> String {
    let module_path = [
        "-p",
        "--module-path",
        "-m",
        "--module",
        "--upgrade-module-path",
    ];
    if module_path
        .iter()
        .any(|o| a == *o || a.starts_with(&format!("{o}=")))
    {
        format!("Error: {a}: jxvm cannot yet run modules outside the JDK (module path)")
    } else if a.starts_with("-javaagent:") {
        format!("Error: {a}: jxvm cannot start java agents (it has no java.lang.instrument)")
    } else if a.starts_with("-agentlib:") || a.starts_with("-agentpath:") {
        format!("Error: {a}: jxvm cannot load native agents (it has no JVMTI)")
    } else {
        format!("Unrecognized option: {a}\n{NOT_CREATED}")
    }
}

impl Given {
    /// The sizes of the heap and stacks (`-Xmx`, their old forms, their -XX flags) and the
    /// other -XX flags: whether `a` is one.
    fn size_option(&mut self, a: &str) -> Result<bool, String> {
        let max = |shown: &str, v: &str| size_value(shown, v, "maximum heap size", 1, u64::MAX);
        if let Some(v) = a.strip_prefix("-Xmx").or_else(|| a.strip_prefix("-mx")) {
            // java's launcher takes -mx, -ms and -ss for -Xmx, -Xms and -Xss.
            self.xmx = Some(max(&format!("-Xmx{v}"), v)?);
        } else if let Some(v) = a.strip_prefix("-XX:MaxHeapSize=") {
            // HotSpot reads it as -Xmx.
            self.xmx = Some(max(a, v)?);
        } else if let Some(v) = a.strip_prefix("-Xms").or_else(|| a.strip_prefix("-ms")) {
            // 0 leaves the initial size to the VM.
            let n = size_value(&format!("-Xms{v}"), v, "initial heap size", 0, u64::MAX)?;
            self.xms = Some(n).filter(|&n| n != 0);
        } else if let Some(v) = a.strip_prefix("-Xss").or_else(|| a.strip_prefix("-ss")) {
            let n = size_value(&format!("-Xss{v}"), v, "thread stack size", 0, MAX_XSS)?;
            self.xss = Some(n).filter(|&n| n != 0);
        } else if a.starts_with("-Xmn") {
            self.xmn = Some(size_option(
                a,
                "initial young generation size",
                1,
                u64::MAX,
            )?);
        } else if let Some(v) = a.strip_prefix("-XX:SharedCacheSize=") {
            // jxvm's own flag (HotSpot 17 has no such flag): the class cache's size limit.
            let min = cache::MIN_MAX_SIZE;
            self.class_cache.max_size = Some(size_value(a, v, "shared cache size", min, u64::MAX)?);
        } else if let Some(flag) = a.strip_prefix("-XX:") {
            self.xx_flag(flag)?;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// `-XX:{flag}`, checked as HotSpot checks it; three flags act.
    fn xx_flag(&mut self, flag: &str) -> Result<(), String> {
        use crate::xx::Value::{Bool, Int, Text};
        let set = crate::xx::check(flag, &mut self.xx).map_err(|m| format!("{m}{NOT_CREATED}"))?;
        match set {
            Some(("InitialHeapSize", Int(n))) => {
                self.xms = u64::try_from(n).ok().filter(|&n| n != 0)
            }
            Some(("ThreadStackSize", Int(n))) => {
                self.xss = u64::try_from(n << 10).ok().filter(|&n| n != 0)
            }
            Some(("CompileThreshold", Int(n))) => {
                self.jit_options().threshold = u32::try_from(n).unwrap_or(u32::MAX)
            }
            Some(("PrintCompilation", Bool(on))) => self.jit_options().print = on,
            Some(("PrintAssembly", Bool(on))) => self.jit_options().print_assembly = on,
            Some(("PrintInlining", Bool(on))) => self.jit_options().print_inlining = on,
            Some(("DumpPerfMapAtExit", Bool(on))) => self.jit_options().perf_map = on,
            Some(("ReservedCodeCacheSize", Int(n))) => {
                self.jit_options().code_cache = usize::try_from(n).unwrap_or(usize::MAX)
            }
            Some(("UseCompiler", Bool(false))) => self.jit_options().mode = Mode::Interpreted,
            Some(("SharedArchiveFile", Text(p))) if !p.is_empty() => {
                self.class_cache.path = Some(p.into())
            }
            _ => {}
        }
        Ok(())
    }

    /// The compiler's options as given so far.
    fn jit_options(&mut self) -> &mut vm::embed::JitOptions {
        self.jit.get_or_insert_with(Default::default)
    }

    /// The VM's other options: whether `a` is one.
    fn vm_option(&mut self, a: &str) -> Result<bool, String> {
        match a {
            "-Xverify:none" | "-noverify" => self.no_verify = true,
            "-Xrs" => self.reduce_signal_usage = true,
            "-Xshare:off" => self.class_cache.share = vm::embed::Share::Off,
            "-Xshare:auto" => self.class_cache.share = vm::embed::Share::Auto,
            "-Xshare:on" => self.class_cache.share = vm::embed::Share::On,
            "-Xint" => self.jit_options().mode = Mode::Interpreted,
            "-Xmixed" => self.jit_options().mode = Mode::Mixed,
            "-Xcomp" => self.jit_options().mode = Mode::Compiled,
            "-verbose:gc" | "-Xlog:gc" | "-Xlog:gc*" | "-Xlog:gc:stdout" => self.gc_log = true,
            "-verbose:class" | "-Xlog:class+load" | "-Xlog:class+load=info" => {
                self.class_load_log = true
            }
            "-Xlog:class+unload" | "-Xlog:class+unload=info" => self.class_unload_log = true,
            // Process-wide, as the 9P clients are the port's: set before any connects.
            "-Xlog:9p" | "-Xlog:9p=info" | "-Xlog:9p*" => ninep::client::set_logging(true),
            "-Xgc:stress" => self.gc_stress = true,
            "-Xgc:verify" => self.gc_verify = true,
            "-Xfuture" => eprintln!(
                "Warning: -Xfuture option is deprecated and may be removed in a future release."
            ),
            "-Xprof" => eprintln!(
                "OpenJDK 64-Bit Server VM warning: Ignoring option -Xprof; support was removed in 10.0"
            ),
            _ if let Some(kv) = a.strip_prefix("-D") => {
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                if k.is_empty() {
                    return Err(format!("Error: invalid system property {a}"));
                }
                self.props.push((k.to_string(), v.to_string()));
            }
            _ if let Some(path) = a.strip_prefix("-Xbootclasspath/a:") => {
                if !self.boot_append.is_empty() {
                    self.boot_append.push(':');
                }
                self.boot_append.push_str(path);
            }
            _ if self.assertions.apply(a) => {}
            _ => return Ok(without_effect(a)),
        }
        Ok(true)
    }

    /// HotSpot's checks after reading the options, in its order: flag ranges, thread stacks,
    /// then the heap (an error, or java's output and exit).
    fn size_checks(&self) -> Option<Result<Command, String>> {
        if let Some(n) = self.xmn.filter(|&n| n > MAX_XMN) {
            return Some(Err(format!(
                "NewSize ({n}) must be less than ergonomic maximum value\n{NOT_CREATED}"
            )));
        }
        if self
            .xss
            .is_some_and(|n| n.div_ceil(1 << 10) << 10 < MIN_XSS)
        {
            // HotSpot prints this one on stdout.
            let stdout = format!(
                "\nThe Java thread stack size specified is too small. Specify at least {}k\n",
                MIN_XSS >> 10
            );
            return Some(Ok(Command::Refuse {
                stdout,
                stderr: format!("{NOT_CREATED}\n"),
            }));
        }
        if self.xms.is_some_and(|n| n < 1 << 20) {
            return Some(Ok(vm_init_error("Too small initial heap")));
        }
        if let Some(j) = self.jit.filter(|j| j.code_cache < MIN_CODE_CACHE) {
            return Some(Err(format!(
                "Invalid ReservedCodeCacheSize: {}K. Must be at least InitialCodeCacheSize={}K.\n{NOT_CREATED}",
                j.code_cache >> 10,
                MIN_CODE_CACHE >> 10
            )));
        }
        None
    }

    /// The VM's options (all but the class path, the properties and the command), or the
    /// command that refuses them (HotSpot's heap checks).
    fn vm_options(&self) -> Result<Result<Options, Command>, String> {
        // Sizes past the address space are refused when the heap is reserved.
        let (xmx, xms) = (self.xmx.map(clamp_size), self.xms.map(clamp_size));
        let mut opts = Options::new(find_java_home()?);
        if let Some(x) = xmx {
            opts.max_heap = x;
            if xms.is_none() {
                opts.initial_heap = opts.initial_heap.min(x);
            }
        }
        if let Some(x) = xms {
            opts.initial_heap = x;
            if xmx.is_none() && x > opts.max_heap {
                opts.max_heap = x;
            }
        }
        if opts.max_heap < 2 << 20 {
            return Ok(Err(vm_init_error("Too small maximum heap")));
        }
        if opts.initial_heap > opts.max_heap {
            return Ok(Err(vm_init_error(
                "Initial heap size set to a larger value than the maximum heap size",
            )));
        }
        opts.young_heap = self.xmn.map(clamp_size);
        if let Some(x) = self.xss.map(clamp_size) {
            opts.stack_size = x;
        }
        opts.verify = !self.no_verify;
        opts.gc_log = self.gc_log;
        opts.class_unload_log = self.class_unload_log;
        opts.class_load_log = self.class_load_log;
        opts.assertions = self.assertions.clone();
        opts.reduce_signal_usage = self.reduce_signal_usage;
        opts.class_cache = self.class_cache.clone();
        if let Some(j) = self.jit {
            opts.jit = j;
        }
        opts.gc_stress |= self.gc_stress;
        opts.gc_verify |= self.gc_verify;
        opts.boot_append = self.boot_append.clone();
        opts.io = self.io.clone();
        Ok(Ok(opts))
    }

    /// What java shows from the created VM with `-XShowSettings`: the option and the sizes
    /// given.
    fn settings(&self) -> Option<Settings> {
        let size = |n: Option<u64>| n.map_or(0, |n| clamp_size(n) as u64);
        self.show_settings.as_ref().map(|flag| Settings {
            flag: flag.clone(),
            initial_heap: size(self.xms),
            max_heap: size(self.xmx),
            stack: size(self.xss),
        })
    }

    /// The command, with `opts` given the class path, properties and command line; the main
    /// class (or file, or jar's arguments) starts at `argv[i]`.
    fn command(
        mut self,
        mut opts: Options,
        argv: &[String],
        i: usize,
        raw: &[OsString],
    ) -> Result<Command, String> {
        let settings = self.settings();
        if let (Some(to_stdout), None) = (self.version, &settings) {
            return Ok(Command::Version {
                to_stdout,
                mode: opts.jit.mode,
            });
        }
        self.check_sandbox()?;
        // Source-file mode: `--source N`, or a main "class" that is a `.java` file.
        let source_mode = self.source.is_some() || argv.get(i).is_some_and(|m| is_source_file(m));
        if let Some(v) = self.source.clone() {
            self.props.push(("jdk.internal.javac.source".into(), v));
        }
        if source_mode {
            let p = self
                .modules
                .property("jdk.module.addmods", "ALL-DEFAULT".into());
            self.props.push(p);
        }
        if !self.boot_append.is_empty() {
            // The JDK's BootLoader finds the appended entries' resources through it.
            let path = self.boot_append.clone();
            self.props.push(("jdk.boot.class.path.append".into(), path));
        }
        opts.props = std::mem::take(&mut self.props);
        opts.vm_args = std::mem::take(&mut self.vm_args);
        let no_program = self.jar.is_none() && self.system.is_none() && argv.get(i).is_none();
        let finish = if self.version.is_some() {
            Finish::Exit
        } else if settings.is_some() && no_program && !source_mode {
            Finish::Usage
        } else {
            std::mem::take(&mut self.finish)
        };
        let show_version = self.version.or(self.show_version);
        // Only the settings, the version or a module listing: no program.
        if !matches!(finish, Finish::RunMain | Finish::DryRun) {
            let (main_class, args) = (String::new(), Vec::new());
            return Ok(Command::Run(Run {
                opts,
                main_class,
                args,
                settings,
                show_version,
                finish,
                sandbox: self.sandbox,
                probe: self.probe,
            }));
        }
        if let Some(file) = self.system.take() {
            if let Some(extra) = argv.get(i) {
                return Err(format!(
                    "Error: unexpected argument {extra} after --system {file}"
                ));
            }
            let domains = crate::system::load(std::path::Path::new(&file))?;
            opts.classpath = self.classpath.take().unwrap_or_else(|| ".".into());
            opts.java_command = format!("--system {file}");
            return Ok(Command::System { opts, domains });
        }
        let (main_class, args) = self.program(&mut opts, source_mode, argv, i, raw)?;
        Ok(Command::Run(Run {
            opts,
            main_class,
            args,
            settings,
            show_version,
            finish,
            sandbox: self.sandbox,
            probe: self.probe,
        }))
    }

    /// `--sandbox` closes the host to the whole process, so it needs a 9P backend for the
    /// program's files and one program: a system's domains are created while others run.
    fn check_sandbox(&self) -> Result<(), String> {
        if !self.sandbox {
            Ok(())
        } else if self.system.is_some() {
            Err(
                "Error: --sandbox is for the whole process: it cannot be given with --system"
                    .into(),
            )
        } else if self.io == port::IoSpec::Host {
            Err("Error: --sandbox needs a 9P backend (--io=9p:...)".into())
        } else {
            Ok(())
        }
    }

    /// The main class and the program's arguments (as bytes), `opts` given the class path
    /// and command line: `-jar`'s, source-file mode's or a main class's.
    fn program(
        &mut self,
        opts: &mut Options,
        source_mode: bool,
        argv: &[String],
        i: usize,
        raw: &[OsString],
    ) -> Result<(String, Vec<Vec<u8>>), String> {
        let bytes = |from: usize| {
            raw[from.min(raw.len())..]
                .iter()
                .map(|a| a.as_bytes().to_vec())
                .collect::<Vec<_>>()
        };
        let command_line = |first: String| {
            std::iter::once(first)
                .chain(argv[i..].iter().cloned())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if let Some(jar) = self.jar.take() {
            let main = jar_main_class(&jar, &self.io)?;
            opts.classpath = jar.clone();
            opts.java_command = command_line(jar);
            return Ok((main, bytes(i)));
        }
        let main = match argv.get(i) {
            _ if source_mode => SOURCE_LAUNCHER,
            Some(main) => main,
            None => return Err(USAGE.to_string()),
        };
        // With --source, java's class path is empty unless given.
        let default = if self.source.is_some() { "" } else { "." };
        let classpath = self
            .classpath
            .take()
            .or_else(|| std::env::var("CLASSPATH").ok())
            .unwrap_or_else(|| default.into());
        opts.classpath = expand_wildcards(&classpath);
        if source_mode {
            // javac's source launcher gets the file and the program's arguments.
            opts.java_command = command_line(format!("jdk.compiler/{SOURCE_LAUNCHER}"));
            return Ok((main.to_string(), bytes(i)));
        }
        opts.java_command = argv[i..].join(" ");
        Ok((main.to_string(), bytes(i + 1)))
    }
}

/// Options java takes that change nothing in jxvm (a VM without JNI, run
/// headless, verifying what HotSpot verifies by default, unloading
/// classes only with their domains): whether `a` is one. -Xcheck:jni checks JNI calls, of
/// which there are none; -Xdebug has been a no-op since JDK 1.4; -splash: needs a display.
fn without_effect(a: &str) -> bool {
    matches!(
        a,
        "-server"
            | "-client"
            | "-Xbatch"
            | "-Xdiag"
            | "-Xcheck:jni"
            | "-Xdebug"
            | "-Xverify:remote"
            | "-Xverify:all"
            | "-Xnoclassgc"
    ) || ["-Xmaxjitcodesize", "-splash:", "-verbose", "-Xlog"]
        .iter()
        .any(|p| a.starts_with(p))
}

/// The class java runs in source-file mode (it compiles the file in memory and runs it).
const SOURCE_LAUNCHER: &str = "com.sun.tools.javac.launcher.Main";

/// Whether java takes main-class argument `arg` for a source file: a `.java` file that exists.
fn is_source_file(arg: &str) -> bool {
    arg.ends_with(".java") && std::fs::metadata(arg).is_ok()
}

/// The module system's launcher options, which java hands to the JDK's `ModuleBootstrap` as
/// `jdk.module.*` properties (it reads and removes them in `initPhase2`).
const MODULE_OPTIONS: [(&str, &str); 7] = [
    ("--add-opens", "jdk.module.addopens"),
    ("--add-exports", "jdk.module.addexports"),
    ("--add-reads", "jdk.module.addreads"),
    ("--add-modules", "jdk.module.addmods"),
    ("--patch-module", "jdk.module.patch"),
    ("--enable-native-access", "jdk.module.enable.native.access"),
    ("--limit-modules", "jdk.module.limitmods"),
];

/// `arg` as a module option: its name, its property and, for `--name=value`, the value.
fn module_option(arg: &str) -> Option<(&'static str, &'static str, Option<&str>)> {
    MODULE_OPTIONS
        .iter()
        .find_map(|&(name, prop)| match arg.strip_prefix(name) {
            Some("") => Some((name, prop, None)),
            Some(rest) => rest.strip_prefix('=').map(|v| (name, prop, Some(v))),
            None => None,
        })
}

/// Whether launcher option `arg` takes the next argument as its value.
pub fn takes_value(arg: &str) -> bool {
    matches!(
        arg,
        "-cp"
            | "-classpath"
            | "--class-path"
            | "--system"
            | "--source"
            | "-d"
            | "--describe-module"
    ) || MODULE_OPTIONS.iter().any(|&(name, _)| name == arg)
}

/// How many of each repeatable module option were given (their properties are numbered).
#[derive(Default)]
struct ModuleOptions {
    counts: std::collections::HashMap<&'static str, usize>,
}

impl ModuleOptions {
    /// The property `prop` of a module option with `value`: `jdk.module.addopens.0`, `.1`,
    /// ...; `--limit-modules`' is one property, the last one given.
    fn property(&mut self, prop: &'static str, value: String) -> (String, String) {
        if prop == "jdk.module.limitmods" {
            return (prop.to_string(), value);
        }
        let n = self.counts.entry(prop).or_default();
        let key = format!("{prop}.{n}");
        *n += 1;
        (key, value)
    }
}

/// The class path with each `DIR/*` (or `*`) entry replaced by the jar files in that
/// directory, as java's launcher expands it (in the order the directory lists them; an entry
/// that names no jar goes).
fn expand_wildcards(classpath: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for e in classpath.split(':') {
        let dir = match e {
            "*" => Some(""),
            _ => e
                .strip_suffix("/*")
                .map(|d| if d.is_empty() { "/" } else { d }),
        };
        let Some(dir) = dir else {
            out.push(e.to_string());
            continue;
        };
        let listing = std::fs::read_dir(if dir.is_empty() { "." } else { dir });
        for entry in listing.into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_jar = name.len() > 4 && name[name.len() - 4..].eq_ignore_ascii_case(".jar");
            if is_jar && entry.path().is_file() {
                out.push(match dir {
                    "" => name,
                    "/" => format!("/{name}"),
                    d => format!("{d}/{name}"),
                });
            }
        }
    }
    out.join(":")
}

/// HotSpot's `vm_exit_during_initialization`, which prints on stdout.
fn vm_init_error(why: &str) -> Command {
    Command::Refuse {
        stdout: format!("Error occurred during initialization of VM\n{why}\n"),
        stderr: String::new(),
    }
}

fn clamp_size(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Main-Class from a jar's manifest, or java's message: the native launcher's when it cannot
/// open the jar or finds its manifest's main section malformed, then LauncherHelper's when
/// `java.util.jar.Manifest` cannot read it or it has no Main-Class.
fn jar_main_class(jar: &str, io: &port::IoSpec) -> Result<String, String> {
    use vm::embed::{Manifest, jar_manifest, launcher_accepts};
    let manifest = jar_manifest(jar, io)?;
    let Some(manifest) = manifest.filter(|m| launcher_accepts(m)) else {
        return Err(format!("Error: Invalid or corrupt jarfile {jar}"));
    };
    let Ok(manifest) = Manifest::parse(&manifest) else {
        return Err(format!(
            "Error: An unexpected error occurred while trying to open file {jar}"
        ));
    };
    let main = manifest
        .main_attribute("Main-Class")
        .ok_or_else(|| format!("no main manifest attribute, in {jar}"))?;
    if let Some(agent) = manifest.main_attribute("Launcher-Agent-Class") {
        return Err(format!(
            "Error: {jar} names Launcher-Agent-Class {}, but jxvm cannot start java agents (it has no java.lang.instrument)",
            agent.trim()
        ));
    }
    Ok(main.trim_matches(|c: char| c <= ' ').replace('/', "."))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sizes() {
        assert_eq!(parse_size("512m"), Some(512 << 20));
        assert_eq!(parse_size("2G"), Some(2 << 30));
        assert_eq!(parse_size("100"), Some(100));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("+5m"), None);
        assert_eq!(parse_size("0x10k"), Some(16 << 10));
        assert_eq!(parse_size("1kk"), None);
        assert_eq!(parse_size("99999999999t"), None);
        assert_eq!(parse_size_in("4g", 0, MAX_XSS), Err(SizeError::TooBig));
        assert_eq!(parse_size_in("0", 1, u64::MAX), Err(SizeError::TooSmall));
    }
}
