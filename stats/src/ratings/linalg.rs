//! The little dense linear algebra the ratings need.

/// A square matrix, row by row.
pub type Matrix = Vec<Vec<f64>>;

/// The inverse of a square matrix by Gauss–Jordan elimination with partial
/// pivoting, `None` when it is (numerically) singular.
pub fn invert(matrix: &[Vec<f64>]) -> Option<Matrix> {
    let n = matrix.len();
    let scale = matrix.iter().flatten().fold(0.0_f64, |m, x| m.max(x.abs()));
    if scale == 0.0 || !scale.is_finite() {
        return (n == 0).then(Vec::new);
    }
    let mut a: Matrix = matrix.to_vec();
    let mut inverse: Matrix = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))?;
        if a[pivot][col].abs() <= scale * 1e-14 {
            return None;
        }
        a.swap(col, pivot);
        inverse.swap(col, pivot);
        let p = a[col][col];
        for j in 0..n {
            a[col][j] /= p;
            inverse[col][j] /= p;
        }
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                if factor != 0.0 {
                    for j in 0..n {
                        a[row][j] -= factor * a[col][j];
                        inverse[row][j] -= factor * inverse[col][j];
                    }
                }
            }
        }
    }
    Some(inverse)
}

/// `matrix · vector`.
pub fn mul_vec(matrix: &[Vec<f64>], vector: &[f64]) -> Vec<f64> {
    matrix.iter().map(|row| row.iter().zip(vector).map(|(a, b)| a * b).sum()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverts_and_refuses_singular_matrices() {
        let a = vec![vec![0.0, 2.0, 1.0], vec![1.0, 1.0, 0.0], vec![3.0, 0.0, 1.0]];
        let inverse = invert(&a).unwrap();
        // A · A⁻¹ = I, column by column.
        for j in 0..3 {
            let column: Vec<f64> = inverse.iter().map(|row| row[j]).collect();
            for (i, entry) in mul_vec(&a, &column).into_iter().enumerate() {
                assert!((entry - f64::from(u8::from(i == j))).abs() < 1e-12, "{i},{j}: {entry}");
            }
        }
        assert_eq!(invert(&[vec![1.0, -1.0], vec![-1.0, 1.0]]), None);
        assert_eq!(mul_vec(&[vec![1.0, 2.0], vec![3.0, 4.0]], &[1.0, -1.0]), vec![-1.0, -1.0]);
    }
}
