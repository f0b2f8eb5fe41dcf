package dev.squall.tasks.compiler;

import com.sun.source.tree.Tree;

/** Operator spellings, shared by the Java and C printers (they agree except for >>> and float %). */
final class Operators {
    private Operators() {
    }

    static String java(Tree.Kind k) {
        return switch (k) {
            case PLUS, UNARY_PLUS, PLUS_ASSIGNMENT -> k == Tree.Kind.PLUS_ASSIGNMENT ? "+=" : "+";
            case MINUS, UNARY_MINUS -> "-";
            case MINUS_ASSIGNMENT -> "-=";
            case MULTIPLY -> "*";
            case MULTIPLY_ASSIGNMENT -> "*=";
            case DIVIDE -> "/";
            case DIVIDE_ASSIGNMENT -> "/=";
            case REMAINDER -> "%";
            case REMAINDER_ASSIGNMENT -> "%=";
            case LEFT_SHIFT -> "<<";
            case LEFT_SHIFT_ASSIGNMENT -> "<<=";
            case RIGHT_SHIFT -> ">>";
            case RIGHT_SHIFT_ASSIGNMENT -> ">>=";
            case UNSIGNED_RIGHT_SHIFT -> ">>>";
            case UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> ">>>=";
            case LESS_THAN -> "<";
            case GREATER_THAN -> ">";
            case LESS_THAN_EQUAL -> "<=";
            case GREATER_THAN_EQUAL -> ">=";
            case EQUAL_TO -> "==";
            case NOT_EQUAL_TO -> "!=";
            case AND -> "&";
            case AND_ASSIGNMENT -> "&=";
            case OR -> "|";
            case OR_ASSIGNMENT -> "|=";
            case XOR -> "^";
            case XOR_ASSIGNMENT -> "^=";
            case CONDITIONAL_AND -> "&&";
            case CONDITIONAL_OR -> "||";
            case LOGICAL_COMPLEMENT -> "!";
            case BITWISE_COMPLEMENT -> "~";
            case PREFIX_INCREMENT, POSTFIX_INCREMENT -> "++";
            case PREFIX_DECREMENT, POSTFIX_DECREMENT -> "--";
            default -> throw new IllegalArgumentException("not an operator: " + k);
        };
    }

    /** The binary operator of a compound assignment kind ({@code +=} gives PLUS). */
    static Tree.Kind binaryOf(Tree.Kind compound) {
        return switch (compound) {
            case PLUS_ASSIGNMENT -> Tree.Kind.PLUS;
            case MINUS_ASSIGNMENT -> Tree.Kind.MINUS;
            case MULTIPLY_ASSIGNMENT -> Tree.Kind.MULTIPLY;
            case DIVIDE_ASSIGNMENT -> Tree.Kind.DIVIDE;
            case REMAINDER_ASSIGNMENT -> Tree.Kind.REMAINDER;
            case LEFT_SHIFT_ASSIGNMENT -> Tree.Kind.LEFT_SHIFT;
            case RIGHT_SHIFT_ASSIGNMENT -> Tree.Kind.RIGHT_SHIFT;
            case UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> Tree.Kind.UNSIGNED_RIGHT_SHIFT;
            case AND_ASSIGNMENT -> Tree.Kind.AND;
            case OR_ASSIGNMENT -> Tree.Kind.OR;
            case XOR_ASSIGNMENT -> Tree.Kind.XOR;
            default -> throw new IllegalArgumentException("not a compound assignment: " + compound);
        };
    }
}
