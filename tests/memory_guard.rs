//! The memory guard's count, with the guard installed as this binary's
//! allocator (as in the `gdl` binary): threads count in batches, and the
//! total stays within a batch a thread of what is live.

use gdl::memory::{self, BATCH, Counting};

#[global_allocator]
static ALLOC: Counting = Counting;

/// One test, so that no other test's allocations run beside it.
#[test]
fn threads_count_in_batches_and_the_total_stays_close() {
    assert!(memory::counting());
    // A large block is counted at once, to the byte, on this thread.
    let before = memory::live();
    let big = vec![1u8; 10 << 20];
    assert_eq!(memory::live() - before, memory::block_bytes(10 << 20));
    drop(big);
    assert_eq!(memory::live(), before);

    // Small blocks on several threads: each keeps 1 MiB in 4 KiB pieces and
    // allocates and frees 64 MiB more in passing.
    const THREADS: usize = 8;
    let before = memory::live() as isize;
    let kept: Vec<Vec<Vec<u8>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    let mut keep = Vec::with_capacity(256);
                    for i in 0..16_384 {
                        let block = std::hint::black_box(vec![i as u8; 4096]);
                        if i % 64 == 0 {
                            keep.push(block);
                        }
                    }
                    keep
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let held = (THREADS * 256 * 4096) as isize;
    let counted = memory::live() as isize - before;
    // The threads ended with less than a batch each not yet added (either
    // way); the result vectors add a little.
    let slack = (THREADS * BATCH) as isize + (64 << 10);
    assert!(
        (counted - held).abs() <= slack,
        "counted {counted} bytes, held {held} (slack {slack})"
    );
    drop(kept);
}
