//! The memory guard: how much heap gdl holds, and a cap on it.
//!
//! The `gdl` binary installs [`Counting`] as its global allocator: it counts
//! the bytes live on the heap, as the allocator's blocks take them with
//! their headers (see [`block_bytes`]), and it never lets an allocation pass
//! the cap, nor lets a failed allocation abort the process: either ends gdl
//! at once with `gdl::memory::limit` and exit code 1.
//!
//! Each thread counts its own allocations and adds them to the shared total
//! once they pass [`BATCH`] either way: one shared counter touched by every
//! allocation of every thread made a match on 16 threads spend two thirds of
//! its time waiting for that counter's cache line (issue 26). So the total
//! is off by less than [`BATCH`] a thread, and an allocation of [`BATCH`] or
//! more is always checked against the cap at once.
//!
//! That is the last resort. Before it, whatever grows with the input (the
//! memo table, the tree, a Q-table, a match's games, a line read from a pipe)
//! asks [`fits`] before it grows, or [`check`] every so often, and stops at
//! the *soft* limit, 7/8 of the cap, with its best partial answer: the last
//! eighth is room to write that answer.
//!
//! The cap is `--max-memory SIZE` on every command, or by default 3/4 of the
//! memory the machine has available (its cgroup's limit, if lower), and never
//! more than an address-space or data limit (`ulimit -v`, `ulimit -d`) leaves.
//!
//! Without [`Counting`] installed (the library in someone else's program, most
//! test binaries) nothing is counted, [`live`] is 0, and nothing ever stops.
//!
//! This module imports nothing of the crate: anything may use it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU8, AtomicUsize, Ordering::Relaxed};

use miette::Diagnostic;
use thiserror::Error;

use crate::error_kind::{EXIT_RUNTIME, Exits};

/// Bytes live on the heap, as counted by [`Counting`], less what threads
/// have counted and not yet added (signed: a thread may free what another
/// allocated before either has added it).
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// Whether any thread has added its count: the heap is counted.
static COUNTED: AtomicBool = AtomicBool::new(false);

/// What a thread counts before adding it to [`LIVE`].
pub const BATCH: usize = 256 << 10;

thread_local! {
    /// Bytes this thread allocated (less those it freed) since it last
    /// added its count to [`LIVE`]. No destructor: a thread's last few
    /// bytes stay uncounted when it ends, and nothing here allocates.
    static PENDING: Cell<isize> = const { Cell::new(0) };
}
/// The cap: no allocation passes it.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// 7/8 of the cap: where growing structures stop with a partial answer.
static SOFT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// Where the cap came from, as an index into `Source`.
static SOURCE: AtomicU8 = AtomicU8::new(Source::None as u8);
/// What gdl is doing, for the message of a stop in the allocator: an index into `ACTIVITIES`.
static ACTIVITY: AtomicU8 = AtomicU8::new(0);

/// The smallest cap `--max-memory` accepts: gdl itself needs a few MiB.
pub const MIN_LIMIT: usize = 16 << 20;

/// Where the cap came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Source {
    /// No cap (nothing counted).
    None = 0,
    /// `--max-memory`.
    Flag = 1,
    /// 3/4 of the memory available on the machine (or in its cgroup).
    Available = 2,
    /// What an address-space or data limit (`ulimit -v`, `ulimit -d`) leaves.
    Rlimit = 3,
}

impl Source {
    fn from_u8(n: u8) -> Source {
        match n {
            1 => Source::Flag,
            2 => Source::Available,
            3 => Source::Rlimit,
            _ => Source::None,
        }
    }

    fn note(self) -> &'static str {
        match self {
            Source::None => "",
            Source::Flag => "set by --max-memory",
            Source::Available => "3/4 of the memory available",
            Source::Rlimit => "what the process's address-space limit leaves",
        }
    }
}

/// The global allocator of the `gdl` binary: the system's, counted and capped.
pub struct Counting;

// SAFETY: every call is forwarded to `System` with the same layout; the
// counter is only arithmetic beside it.
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(block_bytes(layout.size()));
        // SAFETY: the caller's layout, passed on (see the impl).
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            refused(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(block_bytes(layout.size()));
        // SAFETY: the caller's layout, passed on (see the impl).
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            refused(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with this layout (see the impl).
        unsafe { System.dealloc(ptr, layout) };
        shrink(block_bytes(layout.size()));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = block_bytes(layout.size());
        let new_block = block_bytes(new_size);
        if new_block > old {
            grow(new_block - old);
        }
        // SAFETY: `ptr` came from `System` with this layout (see the impl).
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            refused(new_size);
        }
        if new_block < old {
            shrink(old - new_block);
        }
        p
    }
}

/// Counts `bytes` more; past the cap, gdl stops.
#[inline]
fn grow(bytes: usize) {
    // A layout's size is at most `isize::MAX`.
    let bytes = bytes as isize;
    let batch = PENDING.try_with(|p| {
        let n = p.get() + bytes;
        if n < BATCH as isize && COUNTED.load(Relaxed) {
            p.set(n);
            None
        } else {
            p.set(0);
            Some(n)
        }
    });
    let live = add(batch.unwrap_or(Some(bytes)));
    if live.is_some_and(|live| live > LIMIT.load(Relaxed)) {
        refused(bytes as usize);
    }
}

/// Counts `bytes` fewer.
#[inline]
fn shrink(bytes: usize) {
    let bytes = bytes as isize;
    let batch = PENDING.try_with(|p| {
        let n = p.get() - bytes;
        if n > -(BATCH as isize) {
            p.set(n);
            None
        } else {
            p.set(0);
            Some(n)
        }
    });
    add(batch.unwrap_or(Some(-bytes)));
}

/// Adds a thread's count to the total; the new total, if there was one to add.
#[inline]
fn add(batch: Option<isize>) -> Option<usize> {
    let n = batch?;
    if !COUNTED.load(Relaxed) {
        COUNTED.store(true, Relaxed);
    }
    Some(LIVE.fetch_add(n, Relaxed).wrapping_add(n).max(0) as usize)
}

/// Adds this thread's count to the total, so that [`live`] is exact for
/// what this thread did.
fn flush_thread() {
    if let Ok(Some(n)) = PENDING.try_with(|p| (p.get() != 0).then(|| p.replace(0))) {
        LIVE.fetch_add(n, Relaxed);
    }
}

/// Ends the process with the memory diagnostic: an allocation would pass the
/// cap, or the system refused one. Nothing here allocates (the allocator is
/// where we are): the text is formatted on the stack and written with one
/// system call, and the process ends without running destructors.
#[cold]
#[inline(never)]
fn refused(bytes: usize) -> ! {
    let mut buf = StackText::new();
    let limit = LIMIT.load(Relaxed);
    let activity = ACTIVITIES
        .get(usize::from(ACTIVITY.load(Relaxed)))
        .copied()
        .unwrap_or("");
    let _ = std::fmt::write(&mut buf, format_args!("gdl::memory::limit\n\n  × "));
    if limit == usize::MAX {
        let _ = std::fmt::write(
            &mut buf,
            format_args!("the system refused gdl {} of memory", Size(bytes)),
        );
    } else {
        let _ = std::fmt::write(
            &mut buf,
            format_args!("gdl stopped at the memory limit of {}", Size(limit)),
        );
    }
    if !activity.is_empty() {
        let _ = std::fmt::write(&mut buf, format_args!(" while {activity}"));
    }
    let note = Source::from_u8(SOURCE.load(Relaxed)).note();
    if !note.is_empty() {
        let _ = std::fmt::write(&mut buf, format_args!(" ({note})"));
    }
    let _ = std::fmt::write(&mut buf, format_args!("\n  help: {HELP}\n"));
    buf.write_to_stderr();
    exit_now(1)
}

/// What to do about a memory limit, said by every message about one.
const HELP: &str = "give gdl more with --max-memory SIZE (e.g. --max-memory 4G), \
                    or ask for less: a smaller position, a lower --depth, fewer games";

/// What gdl is doing, for the messages of a stop: set with [`doing`].
const ACTIVITIES: &[&str] = &[
    "",
    "reading the game file",
    "compiling the game",
    "solving",
    "building the tree",
    "training",
    "loading the Q-table",
    "saving the Q-table",
    "playing",
    "playing the match",
    "evaluating the Q-table",
    "reading a move",
    "measuring",
    "writing the output",
];

/// Says what gdl is doing now, for the message of a stop: one of the
/// activities above (anything else is ignored).
pub fn doing(activity: &str) {
    if let Some(i) = ACTIVITIES.iter().position(|a| *a == activity) {
        ACTIVITY.store(i as u8, Relaxed);
    }
}

/// What gdl is doing now, as [`doing`] last said.
pub fn activity() -> &'static str {
    ACTIVITIES
        .get(usize::from(ACTIVITY.load(Relaxed)))
        .copied()
        .unwrap_or("")
}

/// A small text buffer on the stack, for messages written without allocating.
struct StackText {
    bytes: [u8; 1024],
    len: usize,
}

impl StackText {
    fn new() -> Self {
        StackText {
            bytes: [0; 1024],
            len: 0,
        }
    }

    fn write_to_stderr(&self) {
        let mut done = 0;
        while done < self.len {
            // SAFETY: writes initialized bytes of our own buffer to fd 2.
            let n = unsafe { libc::write(2, self.bytes[done..].as_ptr().cast(), self.len - done) };
            if n <= 0 {
                break;
            }
            done += n as usize;
        }
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let take = s.len().min(self.bytes.len() - self.len);
        self.bytes[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

fn exit_now(code: i32) -> ! {
    // SAFETY: ends the process; nothing after it runs.
    unsafe { libc::_exit(code) }
}

/// Bytes live on the heap now, this thread's allocations counted exactly
/// and every other thread's to within [`BATCH`]; 0 when nothing is counted.
pub fn live() -> usize {
    flush_thread();
    LIVE.load(Relaxed).max(0) as usize
}

/// Whether the heap is counted (the `gdl` binary, or a test that installs [`Counting`]).
pub fn counting() -> bool {
    COUNTED.load(Relaxed)
}

/// The cap, when there is one.
pub fn limit() -> Option<usize> {
    match LIMIT.load(Relaxed) {
        usize::MAX => None,
        n => Some(n),
    }
}

/// Where the cap came from.
pub fn source() -> Source {
    Source::from_u8(SOURCE.load(Relaxed))
}

/// Sets the cap to `bytes` (`None`: no cap).
pub fn set_limit(bytes: Option<usize>, source: Source) {
    let (limit, soft) = match bytes {
        Some(b) => (b, b - b / 8),
        None => (usize::MAX, usize::MAX),
    };
    SOFT.store(soft, Relaxed);
    LIMIT.store(limit, Relaxed);
    SOURCE.store(if bytes.is_some() { source as u8 } else { 0 }, Relaxed);
}

/// Whether the heap has grown past the soft limit (7/8 of the cap). Cheap: one
/// load and a comparison; call it every so many steps of anything that grows.
#[inline]
pub fn exceeded() -> bool {
    LIVE.load(Relaxed).max(0) as usize > SOFT.load(Relaxed)
}

/// Whether `extra` more bytes stay within the soft limit: ask before a
/// growth you know the size of (a table about to double).
#[inline]
pub fn fits(extra: usize) -> bool {
    (LIVE.load(Relaxed).max(0) as usize).saturating_add(extra) <= SOFT.load(Relaxed)
}

/// Bytes that may still be taken before the soft limit (`usize::MAX` without a cap).
pub fn headroom() -> usize {
    match SOFT.load(Relaxed) {
        usize::MAX => usize::MAX,
        soft => soft.saturating_sub(live()),
    }
}

/// `Err` once the heap is past the soft limit; `activity` says what was
/// being done, for the message.
#[inline]
pub fn check(activity: &'static str) -> Result<(), MemoryLimit> {
    if exceeded() {
        Err(MemoryLimit::now(activity))
    } else {
        Ok(())
    }
}

/// `Err` unless `extra` more bytes fit; see [`fits`].
#[inline]
pub fn check_extra(extra: usize, activity: &'static str) -> Result<(), MemoryLimit> {
    if fits(extra) {
        Ok(())
    } else {
        Err(MemoryLimit::now(activity))
    }
}

/// A stop at the memory limit.
#[derive(Debug, Clone, Error, Diagnostic)]
#[error("gdl stopped at the memory limit of {} while {activity}{}", Size(*.limit), note(.origin))]
#[diagnostic(code(gdl::memory::limit), help("{}", HELP))]
pub struct MemoryLimit {
    /// The cap, in bytes.
    pub limit: usize,
    /// What was being done: "solving", "building the tree".
    pub activity: &'static str,
    /// Where the cap came from.
    pub origin: Source,
}

impl Exits for MemoryLimit {
    fn exit_code(&self) -> i32 {
        EXIT_RUNTIME
    }
}

fn note(origin: &Source) -> String {
    match origin.note() {
        "" => String::new(),
        n => format!(" ({n})"),
    }
}

impl MemoryLimit {
    /// The stop for the cap as it is now.
    pub fn now(activity: &'static str) -> Self {
        MemoryLimit {
            limit: LIMIT.load(Relaxed),
            activity,
            origin: source(),
        }
    }
}

/// The cap as people read it: `512 MiB`, `1.5 GiB`.
pub fn limit_text() -> String {
    Size(LIMIT.load(Relaxed)).to_string()
}

/// A number of bytes as people read it.
#[derive(Clone, Copy, Debug)]
pub struct Size(pub usize);

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
        let mut unit = 0;
        let mut whole = self.0;
        while whole >= 1024 && unit + 1 < UNITS.len() {
            whole /= 1024;
            unit += 1;
        }
        if unit == 0 {
            return write!(f, "{} bytes", self.0);
        }
        let scaled = self.0 as f64 / (1u64 << (10 * unit)) as f64;
        if (scaled - scaled.round()).abs() < 0.05 || scaled >= 100.0 {
            write!(f, "{:.0} {}", scaled, UNITS[unit])
        } else {
            write!(f, "{:.1} {}", scaled, UNITS[unit])
        }
    }
}

/// Reads a size as `--max-memory` takes it: `512M`, `2G`, `1.5G`, `300MiB`,
/// `100000000` (bytes). Units are binary (`1K` = 1024 bytes).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits_end = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits_end);
    let bad = || format!("`{t}` is not a size: write a number and a unit, e.g. 512M or 2G");
    let value: f64 = number.parse().map_err(|_| bad())?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(bad()),
    };
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes >= usize::MAX as f64 {
        return Err(format!("`{t}` is more memory than any machine has"));
    }
    let bytes = bytes as usize;
    if bytes < MIN_LIMIT {
        return Err(format!("`{t}` is too little: gdl needs at least {}", Size(MIN_LIMIT)));
    }
    Ok(bytes)
}

/// The default cap and where it comes from: 3/4 of the memory available to
/// the process (the machine's, or its cgroup's if lower), and no more than an
/// address-space or data limit leaves once `reserve` bytes are set aside
/// (for the stacks of threads yet to start). `None` when nothing is known.
pub fn default_limit(reserve: usize) -> Option<(usize, Source)> {
    let available = available_memory().map(|a| (a.saturating_add(live()) / 4 * 3, Source::Available));
    let rlimited = rlimit_room(reserve).map(|r| (r, Source::Rlimit));
    match (available, rlimited) {
        (Some(a), Some(r)) => Some(if r.0 < a.0 { r } else { a }),
        (a, r) => a.or(r),
    }
}

/// The most heap an address-space or data limit leaves, if one is set: half
/// of what is left of it now, less `reserve`; half, because the heap's own
/// mappings (the allocator's arenas and its rounding) take address space
/// beyond the bytes counted.
pub fn rlimit_room(reserve: usize) -> Option<usize> {
    let used = vm_size().unwrap_or(0);
    let mut room: Option<usize> = None;
    for resource in [libc::RLIMIT_AS, libc::RLIMIT_DATA] {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct we pass.
        if unsafe { libc::getrlimit(resource, &mut lim) } != 0 || lim.rlim_cur == libc::RLIM_INFINITY {
            continue;
        }
        let cur = usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX);
        let left = cur.saturating_sub(used).saturating_sub(reserve) / 2;
        room = Some(room.map_or(left, |r| r.min(left)));
    }
    room.map(|r| r.max(MIN_LIMIT))
}

/// The address space the process maps now, from /proc/self/statm.
fn vm_size() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = text.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf only reads a value.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * usize::try_from(page).unwrap_or(4096))
}

/// Memory available to the process: MemAvailable, or what its cgroup's limit
/// leaves, whichever is less.
pub fn available_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        t.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
            .map(|kb| kb * 1024)
    });
    match (meminfo, cgroup_room()) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    }
}

/// What the memory limit of the process's cgroup leaves (v2 or v1), if any.
fn cgroup_room() -> Option<usize> {
    let read = |p: &str| -> Option<usize> { std::fs::read_to_string(p).ok()?.trim().parse().ok() };
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut dirs: Vec<(String, &str, &str)> = Vec::new();
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next(), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        if controllers.is_empty() {
            dirs.push((format!("/sys/fs/cgroup{path}"), "memory.max", "memory.current"));
        } else if controllers.split(',').any(|c| c == "memory") {
            dirs.push((
                format!("/sys/fs/cgroup/memory{path}"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            ));
        }
    }
    // Inside a container the process's own cgroup is mounted at the root.
    dirs.push(("/sys/fs/cgroup".into(), "memory.max", "memory.current"));
    dirs.push((
        "/sys/fs/cgroup/memory".into(),
        "memory.limit_in_bytes",
        "memory.usage_in_bytes",
    ));
    dirs.iter()
        .filter_map(|(dir, max, current)| {
            let limit = read(&format!("{dir}/{max}"))?;
            // "max", or a number near 2^63: no limit.
            if limit >= 1 << 60 {
                return None;
            }
            let used = read(&format!("{dir}/{current}")).unwrap_or(0);
            Some(limit.saturating_sub(used))
        })
        .min()
}

/// The default cap, set once at start: [`default_limit`] with `reserve`.
pub fn init(reserve: usize) {
    match default_limit(reserve) {
        Some((bytes, source)) => set_limit(Some(bytes.max(MIN_LIMIT)), source),
        None => set_limit(None, Source::None),
    }
}

/// `--max-memory`: the cap the user asked for, but no more than an
/// address-space or data limit leaves (past that, allocations would fail
/// before the cap is reached, and the partial answers with them).
pub fn set_from_flag(bytes: usize, reserve: usize) {
    match rlimit_room(reserve) {
        Some(room) if room < bytes => set_limit(Some(room), Source::Rlimit),
        _ => set_limit(Some(bytes), Source::Flag),
    }
}

/// The most entries a hash table (hashbrown's layout: a power of two of
/// slots of `slot_bytes` and a control byte each, at most 7/8 full) can
/// hold within `budget` bytes, counting the moment it doubles (the old and
/// the new slots live at once) and `heap_per_entry` bytes each entry owns
/// elsewhere on the heap.
pub fn table_entries_within(budget: usize, slot_bytes: usize, heap_per_entry: usize) -> usize {
    let slot = slot_bytes + 1;
    let mut best = 0usize;
    let mut buckets = 8usize;
    loop {
        let entries = buckets / 8 * 7;
        // Growing into `buckets` slots: the old half and the new table at once,
        // then every entry's own bytes.
        let peak = (buckets + buckets / 2)
            .saturating_mul(slot)
            .saturating_add(entries.saturating_mul(heap_per_entry));
        if peak > budget {
            return best;
        }
        best = entries;
        match buckets.checked_mul(2) {
            Some(b) => buckets = b,
            None => return best,
        }
    }
}

/// Bytes the allocator really takes for a block of `bytes`: glibc's malloc
/// adds a header of 8 bytes, rounds to 16, and never gives less than 32.
/// [`Counting`] counts these, not the bytes asked for: a Q-table's millions
/// of small keys, or a save's millions of short strings, take a quarter to
/// three times more than they ask, and the process's resident memory went
/// past a cap that the bytes asked for kept to.
#[inline]
pub fn block_bytes(bytes: usize) -> usize {
    if bytes == 0 {
        return 0;
    }
    ((bytes + 8).div_ceil(16) * 16).max(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_size("300MiB"), Ok(300 << 20));
        assert_eq!(parse_size("100000000"), Ok(100_000_000));
        for bad in ["", "G", "12X", "-1G", "1e9", "1M"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("1000000000T").is_err());
    }

    #[test]
    fn sizes_print_as_people_read_them() {
        assert_eq!(Size(512 << 20).to_string(), "512 MiB");
        assert_eq!(Size(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Size(100).to_string(), "100 bytes");
    }

    #[test]
    fn a_table_within_a_budget_never_passes_it_while_growing() {
        let slot = 40;
        for budget in [1usize << 10, 1 << 20, 5 << 20, 1 << 30] {
            let n = table_entries_within(budget, slot, 24);
            // Its last growth (into `buckets` slots) fits the budget...
            let buckets = (n * 8 / 7).next_power_of_two();
            assert!((buckets + buckets / 2) * (slot + 1) + n * 24 <= budget, "{budget}");
            // ...and the next one would not.
            let next = buckets * 2;
            assert!(
                (next + next / 2) * (slot + 1) + (next / 8 * 7) * 24 > budget,
                "{budget}"
            );
        }
    }
}
