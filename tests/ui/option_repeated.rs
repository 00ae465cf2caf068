#[rt::test(flavor = "current_thread", flavor = "current_thread")]
async fn twice() {}

fn main() {}
