//! The `jxvm` command: java's command line on top of the jxvm runtime.
//!
//! Argument parsing is hand-written because java's syntax (`-cp`, `-Dk=v`, `-Xmx512m`,
//! `-version`, everything after the main class passed to the program) does not fit a
//! general-purpose parser's conventions.

mod args;
mod cache;
mod envopts;
mod gateway;
mod home;
mod sandbox;
mod serve;
mod system;
mod xx;
mod xx_flags;

use std::process::ExitCode;

use args::{Command, parse_args};
use vm::embed::{LaunchError, Launcher, Options, Spec};

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // `jxvm gateway ...` is a command of its own, not java's command line.
    if argv.first().is_some_and(|a| a == "gateway") {
        return gateway::main(&argv[1..]);
    }
    // `jxvm cache ...`: the class cache's contents, counters, check and removal.
    if argv.first().is_some_and(|a| a == "cache") {
        return cache::main(&argv[1..]);
    }
    // `jxvm serve ...`: the fork server.
    if argv.first().is_some_and(|a| a == "serve") {
        return serve::main(&argv[1..]);
    }
    // `jxvm --via SOCKET ...` (or JXVM_SERVER): the program runs in a child of that server.
    let (via, argv) = match argv.as_slice() {
        [flag, socket, rest @ ..] if flag == "--via" => (Some(socket.clone()), rest.to_vec()),
        [flag] if flag == "--via" => {
            eprintln!("Error: --via needs the fork server's socket");
            return ExitCode::from(1);
        }
        _ => (None, argv),
    };
    let via = serve::via_socket(via);
    let original = via.as_ref().map(|_| argv.clone());
    let cmd = match envopts::with_environment_options(argv).and_then(|argv| parse_args(&argv)) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(1);
        }
    };
    if let (Some(socket), Some(argv), Command::Run(run)) = (&via, original, &cmd)
        && run.finish == args::Finish::RunMain
        && !run.sandbox
        && let serve::Via::Ended(code) = serve::run_via(socket, &argv)
    {
        return code;
    }
    match cmd {
        Command::Run(mut run) => {
            // The class cache is a file of the host, which `--sandbox` closes: a sandboxed run
            // goes without it unless it is required (`-Xshare:on` then fails as java does).
            if run.sandbox && run.opts.class_cache.share == vm::embed::Share::Auto {
                run.opts.class_cache.share = vm::embed::Share::Off;
            }
            let guard = match run
                .sandbox
                .then(|| sandbox::before_threads(&mut run))
                .transpose()
            {
                Ok(guard) => guard,
                Err(msg) => {
                    eprintln!("{msg}");
                    return ExitCode::from(1);
                }
            };
            on_main_thread(run.opts.stack_size, move || launch(run, guard))
        }
        Command::System { opts, domains } => {
            on_main_thread(opts.stack_size, move || launch_system(opts, domains))
        }
        Command::PrintMappings => {
            for row in vm::embed::mapping_rows() {
                println!("{row}");
            }
            ExitCode::SUCCESS
        }
        Command::ApiJar => match vm::embed::write_api_jar() {
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
fn start_vm(opts: Options) -> Option<Launcher> {
    Launcher::boot(opts)
        .map_err(|e| match e {
            vm::embed::BootError::Backend(m) => eprintln!("Error: {m}"),
            e => println!("Error occurred during initialization of VM\n{e}"),
        })
        .ok()
}

/// Boots the VM and runs `run`; with `--sandbox` (whose files are closed already, `guard`),
/// the rest of the host is closed between the two.
fn launch(run: args::Run, guard: Option<port::sandbox::FileGuard>) -> u8 {
    let Some(mut l) = start_vm(run.opts.clone()) else {
        return 1;
    };
    if let Some(g) = guard
        && let Err(msg) = sandbox::after_start(g)
    {
        eprintln!("{msg}");
        return 1;
    }
    if let Some(port) = run.probe {
        sandbox::print_probe(&run, port);
    }
    run_program(&mut l, &run)
}

/// Runs what `run` asks for on a booted VM and waits for the program's end; the exit code.
fn run_program(l: &mut Launcher, run: &args::Run) -> u8 {
    if let Some(s) = &run.settings
        && let Err(text) = l.show_settings(&s.flag, s.initial_heap, s.max_heap, s.stack)
    {
        eprintln!("{text}");
        return 1;
    }
    match run.show_version {
        Some(true) => print!("{}", args::version_text(true, l.mode())),
        Some(false) => eprint!("{}", args::version_text(false, l.mode())),
        None => {}
    }
    let helped = match &run.finish {
        args::Finish::RunMain => None,
        args::Finish::Exit => return 0,
        args::Finish::ListModules => Some(l.list_modules()),
        args::Finish::DescribeModule(name) => Some(l.describe_module(name)),
        args::Finish::DryRun => Some(l.dry_run(&run.main_class)),
        args::Finish::Usage => {
            eprint!("{}", args::USAGE);
            return 1;
        }
    };
    // LauncherHelper's answer: 0, or 1 with the exception's text if it threw.
    if let Some(helped) = helped {
        return match helped {
            Ok(()) => 0,
            Err(text) => {
                eprintln!("{text}");
                1
            }
        };
    }
    let code = match l.run_main(&run.main_class, &run.args) {
        Ok(()) => 0,
        // After an uncaught exception java waits for the other threads first.
        Err(e @ LaunchError::Uncaught) => {
            l.report(e);
            1
        }
        // It exits at once when it could not start main.
        Err(e) => {
            l.report(e);
            return 1;
        }
    };
    l.wait_for_program();
    shut_down(l);
    code
}

/// `--system`: creates the described domains in order from the launcher's domain, waits for
/// their components, and exits 1 if a domain could not be created, a component failed, or a
/// domain was terminated (each reported on stderr in one line).
fn launch_system(opts: Options, specs: Vec<Spec>) -> u8 {
    let Some(mut l) = start_vm(opts) else {
        return 1;
    };
    let mut created = Vec::with_capacity(specs.len());
    let mut code = 0;
    for spec in specs {
        match l.create_domain(spec) {
            Ok(d) => created.push(d),
            Err(e) => {
                eprintln!("Error: {e}");
                for d in &created {
                    l.terminate(d, "the system could not be created");
                }
                code = 1;
                break;
            }
        }
    }
    l.wait_for_program();
    if code == 0 {
        for d in &created {
            if let Some(reason) = d.terminated() {
                eprintln!("jxvm: domain {} was terminated: {reason}", d.name());
                code = 1;
            }
        }
        if l.failed_components() > 0 {
            code = 1;
        }
    }
    drop(created);
    shut_down(&mut l);
    code
}

/// Runs the shutdown hooks.
fn shut_down(l: &mut Launcher) {
    l.shut_down();
    if std::env::var_os("JXVM_STATS").is_some() {
        eprintln!(
            "[stats] classes={} heap_used={}KB",
            l.class_count(),
            l.heap_used() / 1024
        );
    }
}
