//! The `jxvm` command: java's command line on top of the jxvm runtime.
//!
//! Argument parsing is hand-written because java's syntax (`-cp`, `-Dk=v`, `-Xmx512m`,
//! `-version`, everything after the main class passed to the program) does not fit a
//! general-purpose parser's conventions.

mod args;
mod envopts;
mod gateway;
mod home;
mod system;
mod xx;
mod xx_flags;

use std::process::ExitCode;

use args::{Command, parse_args};
use vm::domain::lifecycle::{self, End, Spec};
use vm::thread::JThread;

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // `jxvm gateway ...` is a command of its own, not java's command line.
    if argv.first().is_some_and(|a| a == "gateway") {
        return gateway::main(&argv[1..]);
    }
    let cmd = match envopts::with_environment_options(argv).and_then(|argv| parse_args(&argv)) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(1);
        }
    };
    match cmd {
        Command::Run(run) => on_main_thread(run.opts.stack_size, move || launch(run)),
        Command::System { opts, domains } => {
            on_main_thread(opts.stack_size, move || launch_system(opts, domains))
        }
        Command::ApiJar => match vm::api::write_jar() {
            Ok(path) => {
                println!("{}", path.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("jxvm: cannot write the API jar: {e}");
                ExitCode::FAILURE
            }
        },
        Command::MakeHome(dir) => {
            match args::find_java_home().and_then(|jdk| home::make_home(&dir, &jdk)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(1)
                }
            }
        }
        text => print_text(text),
    }
}

/// The commands that only print: help, versions, and java's refusals after parsing.
fn print_text(cmd: Command) -> ExitCode {
    let (stdout, stderr, code) = match cmd {
        Command::HelpExtra { to_stdout: true } => (args::EXTRA_USAGE.into(), String::new(), 0),
        Command::HelpExtra { to_stdout: false } => (String::new(), args::EXTRA_USAGE.into(), 0),
        Command::InternalVersion => (args::internal_version_text(), String::new(), 0),
        Command::Help => (args::USAGE.into(), String::new(), 0),
        Command::Version {
            to_stdout: true,
            mode,
        } => (args::version_text(true, mode), String::new(), 0),
        Command::Version {
            to_stdout: false,
            mode,
        } => (String::new(), args::version_text(false, mode), 0),
        Command::Refuse { stdout, stderr } => (stdout, stderr, 1),
        _ => (
            String::new(),
            "jxvm: internal error: not a printing command\n".into(),
            1,
        ),
    };
    print!("{stdout}");
    eprint!("{stderr}");
    ExitCode::from(code)
}

/// Runs the launcher on a thread with a stack big enough for deep Java recursion.
fn on_main_thread(stack_size: usize, launcher: impl FnOnce() -> u8 + Send + 'static) -> ExitCode {
    let stack = stack_size.saturating_mul(64).clamp(512 << 20, 4 << 30);
    let h = std::thread::Builder::new()
        .name("main".into())
        .stack_size(stack)
        .spawn(launcher);
    match h.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => {
            eprintln!("jxvm: internal error: the main thread failed");
            ExitCode::from(134)
        }
    }
}

/// Creates the VM and boots the launcher's domain (an error is printed as java prints it, on
/// stdout).
fn start_vm(opts: vm::vm::Options) -> Option<Box<JThread>> {
    let started = vm::vm::Vm::create(opts).and_then(vm::vm::boot);
    started
        .map_err(|e| println!("Error occurred during initialization of VM\n{e}"))
        .ok()
}

fn launch(run: args::Run) -> u8 {
    let Some(mut t) = start_vm(run.opts) else {
        return 1;
    };
    if let Some(s) = &run.settings
        && let Err(text) = show_settings(&mut t, s)
    {
        eprintln!("{text}");
        return 1;
    }
    match run.show_version {
        Some(true) => print!("{}", args::version_text(true, t.vm.opts.jit.mode)),
        Some(false) => eprint!("{}", args::version_text(false, t.vm.opts.jit.mode)),
        None => {}
    }
    match &run.finish {
        args::Finish::RunMain => {}
        args::Finish::Exit => return 0,
        args::Finish::ListModules => return launcher_helper(&mut t, "listModules", None),
        args::Finish::DescribeModule(name) => {
            return launcher_helper(&mut t, "describeModule", Some(name));
        }
        args::Finish::DryRun => return dry_run(&mut t, &run.main_class),
        args::Finish::Usage => {
            eprint!("{}", args::USAGE);
            return 1;
        }
    }
    let code = match vm::vm::run_main(&mut t, &run.main_class, &run.args) {
        Ok(()) => 0,
        // After an uncaught exception java waits for the other threads first.
        Err(e @ vm::vm::LaunchError::Uncaught) => {
            e.report(&mut t);
            1
        }
        // It exits at once when it could not start main.
        Err(e) => {
            e.report(&mut t);
            return 1;
        }
    };
    wait_for_program(&mut t);
    shut_down(&mut t);
    code
}

/// Calls LauncherHelper's static `name` (with the string `arg`, if any), as java does for
/// `--list-modules` and `--describe-module`: 0, or 1 with the exception's text if it throws.
fn launcher_helper(t: &mut JThread, name: &str, arg: Option<&str>) -> u8 {
    let r = match arg {
        None => t.call_static("sun/launcher/LauncherHelper", name, "()V", &[]),
        Some(a) => t.new_string(a).and_then(|s| {
            t.call_static(
                "sun/launcher/LauncherHelper",
                name,
                "(Ljava/lang/String;)V",
                &[s.slot()],
            )
        }),
    };
    match r {
        Ok(_) => 0,
        Err(_) => {
            eprintln!("{}", t.take_exception_text());
            1
        }
    }
}

/// `--dry-run`: java's LauncherHelper loads and checks main class `main` (printing java's
/// message and exiting 1 if it cannot); 0 if it can.
fn dry_run(t: &mut JThread, main: &str) -> u8 {
    /// LauncherHelper's mode for a main class named on the command line.
    const LM_CLASS: u64 = 1;
    let loaded = t.new_string(main).and_then(|what| {
        t.call_static(
            "sun/launcher/LauncherHelper",
            "checkAndLoadMain",
            "(ZILjava/lang/String;)Ljava/lang/Class;",
            &[1, LM_CLASS, what.slot()],
        )
    });
    match loaded {
        Ok(_) => 0,
        Err(_) => {
            eprintln!("{}", t.take_exception_text());
            1
        }
    }
}

/// `-XshowSettings`: java's LauncherHelper prints them on stderr; an exception's text if it
/// throws.
fn show_settings(t: &mut JThread, s: &args::Settings) -> Result<(), String> {
    let shown = t.new_string(&s.flag).and_then(|flag| {
        t.call_static(
            "sun/launcher/LauncherHelper",
            "showSettings",
            "(ZLjava/lang/String;JJJ)V",
            // A long takes two slots.
            &[1, flag.slot(), s.initial_heap, 0, s.max_heap, 0, s.stack, 0],
        )
    });
    shown.map(|_| ()).map_err(|_| t.take_exception_text())
}

/// `--system`: creates the described domains in order from the launcher's domain, waits for
/// their components, and exits 1 if a domain could not be created, a component failed, or a
/// domain was terminated (each reported on stderr in one line).
fn launch_system(opts: vm::vm::Options, specs: Vec<Spec>) -> u8 {
    let Some(mut t) = start_vm(opts) else {
        return 1;
    };
    let vm = t.vm;
    let mut created = Vec::with_capacity(specs.len());
    let mut code = 0;
    for spec in specs {
        match t.blocking(|| lifecycle::create(vm, spec)) {
            Ok(d) => created.push(d),
            Err(e) => {
                eprintln!("Error: {}", e.0);
                for d in &created {
                    lifecycle::terminate(vm, d, "the system could not be created");
                }
                code = 1;
                break;
            }
        }
    }
    wait_for_program(&mut t);
    let domains = &vm.domains;
    if code == 0 {
        for d in &created {
            if let Some(End::Terminated(reason)) = d.verdict() {
                eprintln!("jxvm: domain {} was terminated: {reason}", d.name);
                code = 1;
            }
        }
        if domains.failed_components() > 0 {
            code = 1;
        }
    }
    drop(created);
    shut_down(&mut t);
    code
}

/// The launcher's end (HotSpot's DestroyJavaVM): waits for the launcher domain's non-daemon
/// threads and for created domains' mains.
fn wait_for_program(t: &mut JThread) {
    vm::native::thread::exit_thread(t);
    vm::native::thread::wait_for_non_daemon(t);
    let domains = &t.vm.domains;
    t.blocking(|| domains.wait_for_mains());
}

/// Runs the shutdown hooks.
fn shut_down(t: &mut JThread) {
    vm::vm::shutdown(t);
    if std::env::var_os("JXVM_STATS").is_some() {
        eprintln!(
            "[stats] classes={} heap_used={}KB",
            t.vm.classes.class_count(),
            t.domain.heap.used() / 1024
        );
    }
}
