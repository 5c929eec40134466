//! Which compiled copy of the random playout this processor runs, decided once per process.
//!
//! Plain x86-64 builds target the 2003 baseline: no AVX2, no POPCNT, no BMI2. The playout is
//! also compiled for processors that have them, and picked at run time: the code is the same
//! (`OthelloBoard::playout`), only the instructions differ.

/// A compiled copy of the playout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kernel {
    /// The code as the build's target allows.
    Portable,
    /// AVX2 and POPCNT: the four direction pairs of the move generator and of the flips in one
    /// 256-bit register, one instruction per popcount.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// As `Avx2`, and BMI2's `pdep` to find the `k`-th legal move in one instruction.
    #[cfg(target_arch = "x86_64")]
    Avx2Pdep,
}

impl Kernel {
    /// The fastest copy this processor can run.
    #[inline]
    pub(crate) fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            use std::sync::OnceLock;
            static BEST: OnceLock<Kernel> = OnceLock::new();
            *BEST.get_or_init(|| Kernel::available().pop().unwrap_or(Kernel::Portable))
        }
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Portable
    }

    /// Every copy this processor can run, slowest first.
    pub(crate) fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
            kernels.push(Kernel::Avx2);
            if std::is_x86_feature_detected!("bmi2") && fast_pdep() {
                kernels.push(Kernel::Avx2Pdep);
            }
        }
        kernels
    }
}

/// Whether `pdep` takes a few cycles here, as on Intel processors and AMD's from Zen 3
/// (family 19h). Zen 1 and Zen 2 run it in microcode, tens of times slower, and there the
/// plain loop over the set bits is faster.
#[cfg(target_arch = "x86_64")]
fn fast_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    // Family: the base family, plus the extended family when the base is 15.
    let signature = __cpuid(1).eax;
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    !amd || family >= 0x19
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_kernel_is_the_fastest_available_and_portable_is_always_there() {
        let available = Kernel::available();
        assert_eq!(available[0], Kernel::Portable);
        assert_eq!(Some(&Kernel::best()), available.last());
    }
}
