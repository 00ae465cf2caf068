#[rt::test]
fn not_async() {}

#[rt::test]
async fn with_arguments(value: u32) {
    drop(value);
}

#[rt::test]
#[test]
async fn second_test_attribute() {}

fn main() {}
