#[rt::main(deadline_secs = 30)]
async fn main() {}

#[rt::test(deadline_secs = 0)]
async fn no_time_at_all() {}

#[rt::test(deadline_secs = "30s")]
async fn with_a_unit() {}
