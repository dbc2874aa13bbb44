//! `gdl check FILE --ir`: the numbered listing of the code each rule of a
//! game compiled to, one snapshot per file in games/, for a reviewer to read.

use crate::common;

use common::{crate_dir, gdl_in};

#[test]
fn every_game_file_has_an_ir_listing() {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::glob!("../games", "*.game", |path| {
            let file = format!("games/{}", path.file_name().unwrap().to_string_lossy());
            let run = gdl_in(crate_dir(), &["check", &file, "--ir"], None);
            assert_eq!(run.code, 0, "{file}: {}", run.stderr);
            // Every rule has its heading, and every instruction a number.
            assert!(run.stdout.lines().any(|l| l.starts_with("move ")), "{file}");
            assert!(run.stdout.lines().any(|l| l.starts_with("0000  ")), "{file}");
            insta::assert_snapshot!("ir", run.stdout);
        });
    });
}
