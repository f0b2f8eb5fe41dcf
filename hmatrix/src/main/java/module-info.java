/** Point clouds and covariance kernels for hierarchical (H2) matrices and kernel sums. */
module dev.squall.hmatrix {
    exports dev.squall.hmatrix.kernel;
    exports dev.squall.hmatrix.points;
}
