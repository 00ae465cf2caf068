// After an error in the attribute, the function still exists with its
// signature, so its callers type-check and only the real error shows.
#[rt::main(core_threads = 2)]
async fn compute() -> u32 {
    2
}

fn main() {
    let doubled: u32 = compute() * 2;
    drop(doubled);
}
