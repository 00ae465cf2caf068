#[rt::main(flavor = "fastest")]
async fn main() {}
