//! The `gdl` command. Everything it does is library code in `gdl::cli`.

use std::ffi::OsString;

use gdl::solve::SEARCH_STACK;

/// The heap is counted and capped (`gdl::memory`): a run that would pass its
/// memory limit stops with a message, never with an abort.
#[global_allocator]
static ALLOCATOR: gdl::memory::Counting = gdl::memory::Counting;

fn run(args: Vec<OsString>) -> i32 {
    gdl::cli::run(args, &mut std::io::stdout(), &mut std::io::stderr())
}

fn main() {
    // The default cap, before the command's thread takes its stack from
    // whatever an address-space limit leaves.
    gdl::memory::init(SEARCH_STACK);
    gdl::cli::catch_signals();
    let args: Vec<OsString> = std::env::args_os().collect();
    // The command runs on a thread with room for the deepest search: the
    // main thread's stack is whatever the system gives it.
    let worker = std::thread::Builder::new().name("gdl".into()).stack_size(SEARCH_STACK);
    let code = match worker.spawn({
        let args = args.clone();
        move || run(args)
    }) {
        Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        Err(_) => run(args),
    };
    std::process::exit(code);
}
