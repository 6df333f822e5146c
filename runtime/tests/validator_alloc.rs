//! The success path allocates nothing: a counting global allocator watches `validate_raw`,
//! `validate` and `is_valid` over realistic orders, after one warm-up call (PCRE2 gives each
//! thread its match data on first use).

#![deny(unsafe_op_in_unsafe_fn)]

use mongo_schema_test_support::validator_orders as orders;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mongo_schema::bson::RawDocumentBuf;
use mongo_schema::Validator;

struct Counting;

thread_local! {
    // Per thread, so tests running in parallel do not count each other's allocations.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so
// `Counting` keeps each of `System`'s guarantees; counting touches only a thread-local.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc`/`realloc` above, which are `System`'s.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: `ptr` came from `System` (as in `dealloc`); the caller upholds the rest.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn success_path_allocates_nothing() {
    let validator = Validator::new(&orders::schema()).unwrap();
    let docs: Vec<_> = (0..100).map(orders::order).collect();
    let raws: Vec<RawDocumentBuf> = docs.iter().map(|d| RawDocumentBuf::try_from(d).unwrap()).collect();
    assert!(validator.validate_raw(&raws[0]).is_ok()); // warm-up: per-thread PCRE2 match data

    let raw_count = allocations_during(|| raws.iter().for_each(|r| assert!(validator.validate_raw(r).is_ok())));
    let decoded_count = allocations_during(|| docs.iter().for_each(|d| assert!(validator.validate(d).is_ok())));
    let fast_count = allocations_during(|| docs.iter().for_each(|d| assert!(validator.is_valid(d))));
    assert_eq!((raw_count, decoded_count, fast_count), (0, 0, 0));
}

#[test]
fn failure_path_does_allocate() {
    // The counter is live: building errInfo allocates (otherwise the test above proves nothing).
    let validator = Validator::new(&orders::schema()).unwrap();
    let bad = RawDocumentBuf::try_from(&orders::bad_order(1)).unwrap();
    assert!(allocations_during(|| assert!(validator.validate_raw(&bad).is_err())) > 0);
}

/// The inputs above are what they claim: realistic orders (~1.5 KB) that pass, and bad ones that
/// fail on exactly their three planted violations.
#[test]
fn orders_are_realistic_and_valid() {
    let validator = Validator::new(&orders::schema()).unwrap();
    let raw = RawDocumentBuf::try_from(&orders::order(42)).unwrap();
    assert!((1200..1900).contains(&raw.as_bytes().len()), "order is {} bytes", raw.as_bytes().len());
    for i in 0..200 {
        assert!(validator.validate(&orders::order(i)).is_ok(), "order {i}");
        let failure = validator.validate(&orders::bad_order(i)).unwrap_err();
        let paths: Vec<&str> = failure.failure().unwrap().violations().iter().map(|v| v.path.as_str()).collect();
        assert_eq!(paths, ["customer.email", "lines.2.quantity", "coupon"]);
    }
}
