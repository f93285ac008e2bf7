package httpt
