//! The memory guard counts what the heap really takes (issue 23: `train`'s
//! resident memory reached 4.6 GiB under the 3.7 GiB cap it reported). This
//! test binary installs the counting allocator, as the `gdl` binary does.

#[global_allocator]
static ALLOCATOR: gdl::memory::Counting = gdl::memory::Counting;

/// Resident memory now, from /proc/self/statm.
fn resident() -> usize {
    let text = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// A million small blocks (as a Q-table's keys and a save's strings are):
/// what the counter says they hold is what they add to resident memory,
/// within a few percent, where counting the bytes asked for said a quarter.
#[test]
fn small_blocks_are_counted_as_the_memory_they_take() {
    const N: usize = 1_000_000;
    let (live, rss) = (gdl::memory::live(), resident());
    let blocks: Vec<Box<[u8; 8]>> = (0..N).map(|i| Box::new([i as u8; 8])).collect();
    let counted = gdl::memory::live() - live;
    let taken = resident() - rss;
    // 8 bytes asked for each, 32 taken: glibc's smallest block.
    assert!(counted >= 32 * N, "counted {counted}");
    assert!(
        taken <= counted + counted / 10,
        "resident grew by {taken}, counted {counted}"
    );
    assert!(
        taken >= counted - counted / 10,
        "resident grew by {taken}, counted {counted}"
    );
    drop(blocks);
    assert_eq!(gdl::memory::live(), live);
}
