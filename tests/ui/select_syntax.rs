async fn missing_arrow() -> u32 {
    rt::select! {
        v = async { 1 } v
    }
}

async fn missing_comma() -> u32 {
    rt::select! {
        v = async { 1 } => v
        w = async { 2 } => w,
    }
}

async fn two_else() -> u32 {
    rt::select! {
        v = async { 1 } => v,
        else => 2,
        else => 3,
    }
}

async fn no_branches() -> u32 {
    rt::select! {}
}

async fn missing_equals() -> u32 {
    rt::select! {
        Some(v) => v,
    }
}

fn main() {}
