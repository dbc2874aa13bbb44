//! The `gdl` command. Everything it does is library code in `gdl::cli`.

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let code = gdl::cli::run(args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
